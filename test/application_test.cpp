#define BOOST_TEST_MODULE application
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <thread>

#include <unistd.h>

#include <IpIpoptApplication.hpp>
#include <IpJournalist.hpp>
#include <IpSolveStatistics.hpp>

#include "luksan_vlcek4_tnlp.hpp"
#include "paper_options.hpp"
#include "qpm/qpm.hpp"
#include "rosenbrock_sphere_tnlp.hpp"
#include "scratch_dir.hpp"
#include "status_print.hpp"
#include "test_problems.hpp"

using namespace qpm_test;
using Ipopt::ApplicationReturnStatus;
using Ipopt::IpoptApplication;
using Ipopt::SmartPtr;

namespace {

// QPM applications here run the paper's method with QPM-GD (the defaults
// these tests were written for); the default mode has its own tests
// (default_mode_test.cpp).
SmartPtr<IpoptApplication> Quiet(SmartPtr<IpoptApplication> app, double tol = 1e-7) {
  if (dynamic_cast<qpm::QpmApplication*>(GetRawPtr(app))) {
    app->Options()->SetStringValue("qpm_mode", "paper");
    std::string inner;
    if (!app->Options()->GetStringValue("qpm_inner_solver", inner, "")) {
      app->Options()->SetStringValue("qpm_inner_solver", "gradient-descent");
    }
  }
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetNumericValue("tol", tol);
  BOOST_REQUIRE(app->Initialize("") == Ipopt::Solve_Succeeded);
  return app;
}

// Captures what is written to file descriptor 1 while `run` executes.
std::string CaptureStdout(const std::function<void()>& run) {
  std::fflush(stdout);
  char path[] = "/tmp/qpm_stdout_XXXXXX";
  const int fd = mkstemp(path);
  const int saved = dup(1);
  dup2(fd, 1);
  run();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path);
  return text;
}

}  // namespace

// Ipopt 3.11 hands finalize_solution f = 0 and g = 0 when it stops on
// max_cpu_time: the run reports f and the violation at the returned x.
BOOST_AUTO_TEST_CASE(ARunReportsFAndViolationOfTheReturnedPointNotTheSolversCopies) {
  SmartPtr<LuksanVlcek4Tnlp> model = new LuksanVlcek4Tnlp(998);
  const qpm::SolverRun run = qpm::RunSolver(IpoptApplicationFactory(), GetRawPtr(model), "Ipopt",
                                            [](Ipopt::OptionsList& o) {
                                              o.SetIntegerValue("print_level", 0);
                                              o.SetStringValue("sb", "yes");
                                              o.SetNumericValue("max_cpu_time", 1e-6);
                                            });
  BOOST_TEST(run.status == Ipopt::Maximum_CpuTime_Exceeded);
  BOOST_REQUIRE(run.finalized);
  double f = 0.0;
  BOOST_REQUIRE(model->eval_f(model->variables(), run.x.data(), true, f));
  BOOST_TEST(run.f == f);
  BOOST_TEST(run.f > 1e5);             // the start's f, about 3e5
  BOOST_TEST(run.violation_max > 1.0);  // the start's rows, about 42
}

BOOST_AUTO_TEST_CASE(OptionTextSetsItsTypeAndARealIsNoInteger) {
  SmartPtr<IpoptApplication> app = IpoptApplicationFactory();
  Ipopt::OptionsList& o = *app->Options();
  BOOST_TEST(qpm::SetOptionFromText(o, "max_iter", "7"));
  BOOST_TEST(qpm::SetOptionFromText(o, "tol", "1e-7"));
  BOOST_TEST(qpm::SetOptionFromText(o, "tol", "2"));  // an integer's text for a number
  BOOST_TEST(qpm::SetOptionFromText(o, "mu_strategy", "adaptive"));
  BOOST_TEST(!qpm::SetOptionFromText(o, "max_iter", "1e3"));  // not 1
  Ipopt::Index iterations = 0;
  double tol = 0.0;
  std::string strategy;
  BOOST_TEST(o.GetIntegerValue("max_iter", iterations, ""));
  BOOST_TEST(iterations == 7);
  BOOST_TEST(o.GetNumericValue("tol", tol, ""));
  BOOST_TEST(tol == 2.0);
  BOOST_TEST(o.GetStringValue("mu_strategy", strategy, ""));
  BOOST_TEST(strategy == "adaptive");
}

// A driver's stdout is its CSV: a text some setter accepts prints nothing,
// and one that none accepts prints Ipopt's complaint once.
BOOST_AUTO_TEST_CASE(OptionTextComplainsOnlyWhenNoSetterTakesIt) {
  ScratchDir dir;
  const std::string log = dir.File("options.log");
  SmartPtr<Ipopt::Journalist> journalist = new Ipopt::Journalist();
  journalist->AddFileJournal("scratch", log, Ipopt::J_ALL);
  SmartPtr<IpoptApplication> app = IpoptApplicationFactory();
  Ipopt::OptionsList& o = *app->Options();
  o.SetJournalist(journalist);
  auto logged = [&]() {
    journalist->FlushBuffer();
    std::ifstream in(log);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  BOOST_TEST(qpm::SetOptionFromText(o, "tol", "2"));            // Number, integer text
  BOOST_TEST(qpm::SetOptionFromText(o, "max_iter", "7"));       // Integer
  BOOST_TEST(qpm::SetOptionFromText(o, "mu_strategy", "adaptive"));  // String
  BOOST_TEST(logged().empty());
  BOOST_TEST(!qpm::SetOptionFromText(o, "max_iter", "1e3"));
  const std::string complaint = logged();
  BOOST_TEST(complaint.find("max_iter") != std::string::npos);
  BOOST_TEST(complaint.find("Tried to set") != std::string::npos);
  BOOST_TEST(complaint.find("Tried to set") == complaint.rfind("Tried to set"));  // once
}

BOOST_AUTO_TEST_CASE(IpoptAndQpmReachTheSamePointThroughTheSameInterface) {
  SmartPtr<Ipopt::TNLP> tnlp = new RosenbrockSphereTnlp(10, 1e-8);
  SmartPtr<IpoptApplication> ipopt = Quiet(IpoptApplicationFactory(), 1e-9);
  SmartPtr<IpoptApplication> qpm_app = Quiet(new qpm::QpmApplication(), 1e-6);
  const qpm::SolverRun a = qpm::RunSolver(ipopt, tnlp, "Ipopt", nullptr);
  const qpm::SolverRun b = qpm::RunSolver(qpm_app, tnlp, "QPM", nullptr);
  BOOST_TEST(a.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(b.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(std::abs(a.f - b.f) <= 1e-4);
  BOOST_TEST((a.x - b.x).norm() <= 1e-4);
  BOOST_TEST((a.lambda - b.lambda).norm() <= 1e-3 * std::max(1.0, a.lambda.norm()));
  BOOST_TEST(b.kkt_residual <= 1e-6);
  BOOST_TEST(b.violation_norm <= 1e-6);
  BOOST_TEST(b.counts.eval_h == 0);
}

BOOST_AUTO_TEST_CASE(FinalizesOnceWithIpoptConventions) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(CircleLinear());
  SmartPtr<IpoptApplication> app = Quiet(new qpm::QpmApplication());
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Solve_Succeeded);
  BOOST_TEST(tnlp->finalize_calls == 1);
  BOOST_TEST(tnlp->final_status == Ipopt::SUCCESS);
  BOOST_TEST(std::abs(tnlp->f_final + 2.0) <= 1e-6);
  BOOST_TEST(std::abs(tnlp->lambda_final[0] - 0.5) <= 1e-5);  // Ipopt's sign
  // g = c + g_l is what eval_g returns (here g_l = 0 and g = ||x||^2 - 2).
  BOOST_TEST(std::abs(tnlp->g_final[0] - (tnlp->x_final.squaredNorm() - 2.0)) <= 1e-12);
  BOOST_TEST(tnlp->z_L_final.norm() == 0.0);
  BOOST_TEST(tnlp->z_U_final.norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(StatisticsAreNeverNullAndCountInnerIterations) {
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  BOOST_REQUIRE(IsValid(app->Statistics()));
  BOOST_TEST(app->Statistics()->IterationCount() == 0);
  app = Quiet(app);
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Solve_Succeeded);
  BOOST_REQUIRE(IsValid(app->Statistics()));
  BOOST_TEST(app->Statistics()->IterationCount() == tnlp->last_iter);
  BOOST_TEST(app->Statistics()->IterationCount() > 0);
  Ipopt::Index f_evals, g_evals, grad_evals, jac_evals, h_evals;
  app->Statistics()->NumberOfEvaluations(f_evals, g_evals, grad_evals, jac_evals, h_evals);
  BOOST_TEST(f_evals == g_evals);
  BOOST_TEST(grad_evals == jac_evals);
  BOOST_TEST(h_evals == 0);
  BOOST_TEST(std::abs(app->Statistics()->FinalObjective() + std::sqrt(3.0)) <= 1e-5);
}

BOOST_AUTO_TEST_CASE(IntermediateCallbackSeesEveryInnerIterationAndCanStop) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  tnlp->stop_after = 4;
  SmartPtr<IpoptApplication> app = Quiet(new qpm::QpmApplication());
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::User_Requested_Stop);
  BOOST_TEST(tnlp->callbacks == 5);  // iterations 0..4
  BOOST_TEST(tnlp->finalize_calls == 1);
  BOOST_TEST(tnlp->final_status == Ipopt::USER_REQUESTED_STOP);
}

BOOST_AUTO_TEST_CASE(MaxIterCountsInnerIterations) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("max_iter", 10);
  app = Quiet(app, 1e-10);
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Maximum_Iterations_Exceeded);
  BOOST_TEST(app->Statistics()->IterationCount() == 10);
}

BOOST_AUTO_TEST_CASE(MaxOuterIterGivesMaximumIterationsExceeded) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(CircleLinear());
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("qpm_max_outer_iter", 2);
  app = Quiet(app, 1e-10);
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Maximum_Iterations_Exceeded);
  BOOST_TEST(tnlp->final_status == Ipopt::MAXITER_EXCEEDED);
}

BOOST_AUTO_TEST_CASE(ReadsOptionFiles) {
  const ScratchDir dir;
  const std::string path = dir.File("qpm_test_options.opt");
  {
    std::ofstream out(path);
    out << "qpm_penalty_growth 2.5\nqpm_max_outer_iter 1\nprint_level 0\nsb yes\n";
  }
  SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication();
  BOOST_REQUIRE(app->Initialize(path) == Ipopt::Solve_Succeeded);
  qpm::Options options = PaperOptions();
  qpm::TnlpOptions tnlp_options;
  std::string error;
  BOOST_REQUIRE(app->ReadOptions(&options, &tnlp_options, &error));
  BOOST_TEST(options.penalty_growth == 2.5);
  BOOST_TEST(options.max_outer_iter == 1);
}

BOOST_AUTO_TEST_CASE(MapsIpoptTolerancesToEps0AndEps1) {
  SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication();
  qpm::Options o = PaperOptions();
  qpm::TnlpOptions t;
  std::string error;
  app->Options()->SetNumericValue("tol", 1e-5);
  BOOST_REQUIRE(app->ReadOptions(&o, &t, &error));
  BOOST_TEST(o.paper.feasibility_tol == 1e-5);
  BOOST_TEST(o.paper.stationarity_tol == 1e-5);
  BOOST_TEST(o.max_inner_iter == 10000000);  // max_iter unset: qpm_max_inner_iter
  app->Options()->SetNumericValue("constr_viol_tol", 1e-3);
  app->Options()->SetNumericValue("dual_inf_tol", 1e-4);
  BOOST_REQUIRE(app->ReadOptions(&o, &t, &error));
  BOOST_TEST(o.paper.feasibility_tol == 1e-3);
  BOOST_TEST(o.paper.stationarity_tol == 1e-4);
}

BOOST_AUTO_TEST_CASE(CloneKeepsOptions) {
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("qpm_penalty_growth", 3.0);
  SmartPtr<IpoptApplication> copy = app->clone();
  BOOST_REQUIRE(dynamic_cast<qpm::QpmApplication*>(GetRawPtr(copy)) != nullptr);
  double alpha = 0.0;
  BOOST_TEST(copy->Options()->GetNumericValue("qpm_penalty_growth", alpha, ""));
  BOOST_TEST(alpha == 3.0);
}

BOOST_AUTO_TEST_CASE(RefusesNlpInterface) {
  SmartPtr<IpoptApplication> app = Quiet(new qpm::QpmApplication());
  BOOST_TEST(app->OptimizeNLP(nullptr) == Ipopt::Invalid_Problem_Definition);
  BOOST_TEST(app->ReOptimizeNLP(nullptr) == Ipopt::Invalid_Problem_Definition);
}

BOOST_AUTO_TEST_CASE(RefusesInconsistentBoundsWithoutFinalizing) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  tnlp->x_lower = 6.0;
  tnlp->x_upper = 5.0;
  SmartPtr<IpoptApplication> app = Quiet(new qpm::QpmApplication());
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Invalid_Problem_Definition);
  BOOST_TEST(tnlp->finalize_calls == 0);
}

BOOST_AUTO_TEST_CASE(InvalidNumberAtStartIsReported) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  tnlp->nan_at_start = true;
  SmartPtr<IpoptApplication> app = Quiet(new qpm::QpmApplication());
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Invalid_Number_Detected);
  BOOST_TEST(tnlp->finalize_calls == 1);
}

BOOST_AUTO_TEST_CASE(NegativeObjectiveScalingMaximizesLikeIpopt) {
  // max -(x1 + x2) on the circle: the same point as min x1 + x2.
  TestProblem p = CircleLinear();
  p.f = [](const Vector& x) { return -(x[0] + x[1]); };
  p.grad = [](const Vector&) { return Vector::Constant(2, -1.0); };
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(p);
  SmartPtr<IpoptApplication> ipopt = IpoptApplicationFactory();
  ipopt->Options()->SetNumericValue("obj_scaling_factor", -1.0);
  ipopt->Options()->SetStringValue("hessian_approximation", "limited-memory");
  SmartPtr<IpoptApplication> qpm_app = new qpm::QpmApplication();
  qpm_app->Options()->SetNumericValue("obj_scaling_factor", -1.0);
  const qpm::SolverRun a = qpm::RunSolver(Quiet(ipopt, 1e-9), GetRawPtr(tnlp), "Ipopt", nullptr);
  const qpm::SolverRun b = qpm::RunSolver(Quiet(qpm_app), GetRawPtr(tnlp), "QPM", nullptr);
  BOOST_TEST(a.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(b.status == Ipopt::Solve_Succeeded);
  BOOST_TEST(std::abs(b.f - 2.0) <= 1e-6);
  BOOST_TEST((a.x - b.x).norm() <= 1e-5);
  BOOST_TEST(std::abs(a.lambda[0] - b.lambda[0]) <= 1e-5);
}

BOOST_AUTO_TEST_CASE(PrintLevelZeroPrintsNothing) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetNumericValue("tol", 1e-6);
  app->Initialize("");
  const std::string out = CaptureStdout([&] { app->OptimizeTNLP(GetRawPtr(tnlp)); });
  BOOST_TEST(out.empty());
  app->Options()->SetIntegerValue("print_level", 5);
  const std::string log = CaptureStdout([&] { app->OptimizeTNLP(GetRawPtr(tnlp)); });
  BOOST_TEST(log.find("EXIT: Optimal Solution Found.") != std::string::npos);
  BOOST_TEST(log.find("Number of objective function evaluations") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(LimitedMemoryHessianApproximationSelectsLbfgsWithoutEvalH) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  SmartPtr<qpm::QpmApplication> app = new qpm::QpmApplication();
  app->Options()->SetStringValue("hessian_approximation", "limited-memory");
  app->Options()->SetIntegerValue("limited_memory_max_history", 4);
  Quiet(GetRawPtr(app), 1e-7);
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Solve_Succeeded);
  BOOST_TEST(tnlp->eval_h_calls == 0);  // not even the structure call
  qpm::Options o = PaperOptions();
  qpm::TnlpOptions t;
  std::string error;
  BOOST_REQUIRE(app->ReadOptions(&o, &t, &error));
  BOOST_TEST(o.inner_solver == qpm::InnerSolverType::kLbfgs);
  BOOST_TEST(o.lbfgs.memory == 4);
  BOOST_TEST(std::abs(tnlp->f_final + std::sqrt(3.0)) <= 1e-6);
}

BOOST_AUTO_TEST_CASE(TrustRegionSolvesWithOneHessianPerAcceptedIterate) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7(), Ipopt::TNLP::FORTRAN_STYLE);
  tnlp->upper_hessian = true;
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetStringValue("qpm_inner_solver", "trust-region");
  Quiet(app, 1e-7);
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Solve_Succeeded);
  BOOST_TEST(std::abs(tnlp->f_final + std::sqrt(3.0)) <= 1e-7);
  Ipopt::Index f, g, gf, jac, h;
  app->Statistics()->NumberOfEvaluations(f, g, gf, jac, h);
  BOOST_TEST(h <= app->Statistics()->IterationCount() + 1);  // one per accepted iterate (+ start)
  BOOST_TEST(h > 0);
}

BOOST_AUTO_TEST_CASE(TooTightToleranceStallsInsteadOfLooping) {
  // At tol 1e-10 the penalty needs beta ~ 1e9, where grad Q carries rounding
  // noise ~ beta ||J|| eps |c terms| >> 1e-10: QPM must stop, not spin.
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetStringValue("qpm_inner_solver", "trust-region");
  Quiet(app, 1e-11);
  // Within Ipopt's acceptable_tol (1e-6) the stall is reported as acceptable...
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Solved_To_Acceptable_Level);
  BOOST_TEST(tnlp->final_status == Ipopt::STOP_AT_ACCEPTABLE_POINT);
  // ... and as a stall when the acceptable level is tighter than reachable.
  app->Options()->SetNumericValue("acceptable_tol", 1e-12);
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Search_Direction_Becomes_Too_Small);
  BOOST_TEST(tnlp->finalize_calls == 2);
  BOOST_TEST(std::abs(tnlp->f_final + std::sqrt(3.0)) <= 1e-6);  // the best point, near x*
  BOOST_TEST(app->Statistics()->IterationCount() < 100000);
}

BOOST_AUTO_TEST_CASE(WallTimeLimitStopsWithinAnIteration) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs6());
  tnlp->sleep_us = 2000;  // a slow model: 2 ms per eval_f, little CPU
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("qpm_max_wall_time", 0.2);
  Quiet(app, 1e-12);
  tnlp->new_x_flags.clear();
  const auto start = std::chrono::steady_clock::now();
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Maximum_CpuTime_Exceeded);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST(tnlp->final_status == Ipopt::CPUTIME_EXCEEDED);
  BOOST_TEST(wall >= 0.2);
  BOOST_TEST(wall <= 0.3);  // one inner iteration is a few evaluations of 2 ms
}

// A model whose setup (get_starting_point, read before the core's clocks
// start) takes `setup_seconds` of wall time (sleep) or of CPU (busy-wait).
class SlowSetupTnlp : public DenseTnlp {
 public:
  SlowSetupTnlp(TestProblem p, double setup_seconds, bool burn_cpu)
      : DenseTnlp(std::move(p)), setup_seconds_(setup_seconds), burn_cpu_(burn_cpu) {}
  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_l, Number* z_u,
                          Index m, bool init_lambda, Number* lambda) override {
    if (burn_cpu_) {
      const std::clock_t until = std::clock() + static_cast<std::clock_t>(setup_seconds_ * CLOCKS_PER_SEC);
      while (std::clock() < until) {
      }
    } else {
      std::this_thread::sleep_for(std::chrono::duration<double>(setup_seconds_));
    }
    return DenseTnlp::get_starting_point(n, init_x, x, init_z, z_l, z_u, m, init_lambda, lambda);
  }

 private:
  double setup_seconds_;
  bool burn_cpu_;
};

// The limits count from the start of OptimizeTNLP, as Ipopt's: a setup
// longer than the limit leaves no time for iterations.
BOOST_AUTO_TEST_CASE(WallTimeLimitCountsTheSetup) {
  SmartPtr<SlowSetupTnlp> tnlp = new SlowSetupTnlp(Hs6(), 0.3, false);
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("qpm_max_wall_time", 0.2);
  Quiet(app, 1e-12);
  const auto start = std::chrono::steady_clock::now();
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Maximum_CpuTime_Exceeded);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST(tnlp->final_status == Ipopt::CPUTIME_EXCEEDED);
  BOOST_TEST(app->Statistics()->IterationCount() <= 1);
  BOOST_TEST(wall <= 0.4);  // not 0.3 s of setup + 0.2 s of iterations
}

BOOST_AUTO_TEST_CASE(CpuTimeLimitCountsTheSetup) {
  SmartPtr<SlowSetupTnlp> tnlp = new SlowSetupTnlp(Hs6(), 0.3, true);
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("max_cpu_time", 0.2);
  Quiet(app, 1e-12);
  const std::clock_t start = std::clock();
  BOOST_TEST(app->OptimizeTNLP(GetRawPtr(tnlp)) == Ipopt::Maximum_CpuTime_Exceeded);
  const double cpu = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  BOOST_TEST(tnlp->final_status == Ipopt::CPUTIME_EXCEEDED);
  BOOST_TEST(app->Statistics()->IterationCount() <= 1);
  BOOST_TEST(cpu <= 0.4);  // not 0.3 s of setup + 0.2 s of iterations (a margin for sanitizers)
}

BOOST_AUTO_TEST_CASE(ExceptionInACallbackIsReportedAndTheBestPointFinalizedOnce) {
  SmartPtr<DenseTnlp> tnlp = new DenseTnlp(Hs7());
  tnlp->throw_at_eval_f = 20;
  SmartPtr<IpoptApplication> app = Quiet(new qpm::QpmApplication());
  std::string log;
  ApplicationReturnStatus status = Ipopt::Internal_Error;
  app->Options()->SetIntegerValue("print_level", 1);  // errors only
  log = CaptureStdout([&] { status = app->OptimizeTNLP(GetRawPtr(tnlp)); });
  BOOST_TEST(status == Ipopt::NonIpopt_Exception_Thrown);
  BOOST_TEST(log.find("eval_f: model broke at call 20") != std::string::npos);
  BOOST_TEST(tnlp->finalize_calls == 1);
  BOOST_TEST(tnlp->final_status == Ipopt::INTERNAL_ERROR);
  BOOST_TEST(tnlp->x_final.allFinite());
  BOOST_TEST(tnlp->eval_f_calls == 20);  // no callback after the exception
}
