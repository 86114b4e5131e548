#define BOOST_TEST_MODULE inner_solver
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "core/inner/gradient_descent.hpp"
#include "core/inner/inner_solver.hpp"
#include "core/inner/lbfgs.hpp"
#include "core/inner/trust_region.hpp"
#include "qpm/core/solver.hpp"
#include "status_print.hpp"

// The pieces the inner solvers share (inner_solver.hpp): the stall monitor
// and the CPU / wall deadline, alone and as they end an inner solve.

using qpm::Vector;

namespace {

// A point with the given Q (f, no constraints) and ||grad Q||.
qpm::Iterate Point(double q, double grad_norm) {
  qpm::Iterate x;
  x.f = q;
  x.c_squared = 0.0;
  x.grad_q_norm = grad_norm;
  return x;
}

// Feeds `steps` to a monitor; the 1-based step at which it first said
// stalled, 0 if never.
// The first step (1-based) after which `monitor` reports a stall, 0 if none;
// steps from index below_ulp_from on (never if negative) are flagged as
// predicted below Q's last place.
long FirstStall(qpm::StallMonitor* monitor, const std::vector<qpm::Iterate>& steps,
                long below_ulp_from = -1) {
  for (size_t i = 0; i < steps.size(); ++i) {
    const bool below_ulp = below_ulp_from >= 0 && static_cast<long>(i) >= below_ulp_from;
    if (monitor->Stalled(steps[i], below_ulp)) return static_cast<long>(i) + 1;
  }
  return 0;
}

void BurnCpu(double seconds) {
  const double until = qpm::CpuSeconds() + seconds;
  volatile double sink = 0.0;
  while (qpm::CpuSeconds() < until) {
    for (int i = 0; i < 1000; ++i) sink = sink + 1e-9 * i;
  }
}

// f = sum x_i^4 with its Hessian: every solver approaches x = 0 only
// linearly, so with tau = 1e-300 no solve ends before its deadline. Each
// evaluation of f takes `cpu_per_eval` seconds of CPU, or sleeps
// `sleep_per_eval` seconds (wall time, little CPU).
class SlowQuartic : public qpm::Problem {
 public:
  explicit SlowQuartic(int n) : n_(n) {}
  int num_variables() const override { return n_; }
  int num_constraints() const override { return 0; }
  void InitJacobian(qpm::SparseMatrix* j) const override { j->resize(0, n_); }
  bool EvalObjective(const qpm::ConstVectorRef& x, double* f) override {
    if (cpu_per_eval > 0.0) BurnCpu(cpu_per_eval);
    if (sleep_per_eval > 0.0) std::this_thread::sleep_for(std::chrono::duration<double>(sleep_per_eval));
    *f = x.array().pow(4).sum();
    return true;
  }
  bool EvalConstraints(const qpm::ConstVectorRef&, qpm::VectorRef) override { return true; }
  bool EvalGradient(const qpm::ConstVectorRef& x, qpm::VectorRef g) override {
    g = 4.0 * x.array().cube().matrix();
    return true;
  }
  bool EvalJacobian(const qpm::ConstVectorRef&, qpm::SparseMatrixView*) override { return true; }
  bool has_hessian() const override { return true; }
  void InitHessian(qpm::SparseMatrix* h) const override {
    h->resize(n_, n_);
    h->setIdentity();
  }
  bool EvalHessian(const qpm::ConstVectorRef& x, double sigma, const qpm::ConstVectorRef&,
                   qpm::SparseMatrix* h) override {
    for (int i = 0; i < n_; ++i) h->coeffRef(i, i) = sigma * 12.0 * x[i] * x[i];
    return true;
  }
  double cpu_per_eval = 0.0;
  double sleep_per_eval = 0.0;

 private:
  int n_;
};

std::unique_ptr<qpm::InnerSolver> MakeSolver(qpm::InnerSolverType type, qpm::PenaltyFunction* q) {
  switch (type) {
    case qpm::InnerSolverType::kGradientDescent:
      return std::make_unique<qpm::GradientDescent>(qpm::GradientDescentOptions(), *q->assembled());
    case qpm::InnerSolverType::kTrustRegion:
      return std::make_unique<qpm::TrustRegion>(qpm::TrustRegionOptions(), q);
    case qpm::InnerSolverType::kLbfgs:
      return std::make_unique<qpm::Lbfgs>(qpm::LbfgsOptions(), *q->assembled());
    case qpm::InnerSolverType::kInterior:  // needs a box: model_library_test
      break;
  }
  return nullptr;
}

const qpm::InnerSolverType kAllInner[] = {qpm::InnerSolverType::kGradientDescent,
                                          qpm::InnerSolverType::kTrustRegion,
                                          qpm::InnerSolverType::kLbfgs};

}  // namespace

BOOST_AUTO_TEST_CASE(StallMonitorDeclaresAStallAfterTheWindowWithoutProgress) {
  qpm::StallMonitor monitor(5, 1e-14, Point(1.0, 1.0), 1.0);
  const std::vector<qpm::Iterate> same(10, Point(1.0, 1.0));
  BOOST_TEST(FirstStall(&monitor, same) == 5);
}

BOOST_AUTO_TEST_CASE(StallMonitorDoesNotCountADecreaseOfQWithinItsRounding) {
  // Q falls by 1e-15 relative per step: below stall_rounding 1e-14.
  qpm::StallMonitor monitor(5, 1e-14, Point(1.0, 1.0), 1.0);
  std::vector<qpm::Iterate> steps;
  for (int i = 1; i <= 10; ++i) steps.push_back(Point(1.0 - 1e-15 * i, 1.0));
  BOOST_TEST(FirstStall(&monitor, steps) == 5);
}

BOOST_AUTO_TEST_CASE(StallMonitorRestartsItsCountOnANewLowOfTheGradientOrOfQ) {
  // Steps 1-3 make no progress, step 4 does; then none: the drought counts
  // from step 4, stalled at step 4 + 5.
  for (const qpm::Iterate& progress : {Point(1.0, 0.5), Point(0.9, 1.0)}) {
    qpm::StallMonitor monitor(5, 1e-14, Point(1.0, 1.0), 1.0);
    std::vector<qpm::Iterate> steps(3, Point(1.0, 1.0));
    steps.push_back(progress);
    for (int i = 0; i < 10; ++i) steps.push_back(Point(1.0, 1.0));
    BOOST_TEST_CONTEXT("progress Q " << progress.f << ", ||grad Q|| " << progress.grad_q_norm) {
      BOOST_TEST(FirstStall(&monitor, steps) == 9);
    }
  }
}

BOOST_AUTO_TEST_CASE(StallMonitorWithAGradientDropIgnoresLowsOfTheNoise) {
  // ||grad Q|| makes a new low by 0.1% at every step with Q flat, as a walk
  // in the rounding noise does: any new low is progress (no stall in 50
  // steps), while with gradient_drop 0.5 none is and the window of 5 ends
  // it; a halving at step 3 is still progress (stall at 3 + 5).
  std::vector<qpm::Iterate> noise;
  for (int i = 1; i <= 50; ++i) noise.push_back(Point(1.0, 1.0 - 1e-3 * i));
  qpm::StallMonitor any_low(5, 1e-14, Point(1.0, 1.0), 1.0);
  qpm::StallMonitor halving(5, 1e-14, Point(1.0, 1.0), 1.0, 0.5);
  BOOST_TEST(FirstStall(&any_low, noise) == 0);
  BOOST_TEST(FirstStall(&halving, noise) == 5);
  noise[2] = Point(1.0, 0.4);
  for (size_t i = 3; i < noise.size(); ++i) noise[i].grad_q_norm = 0.4 - 1e-4 * static_cast<double>(i);
  qpm::StallMonitor halved(5, 1e-14, Point(1.0, 1.0), 1.0, 0.5);
  BOOST_TEST(FirstStall(&halved, noise) == 8);
}

BOOST_AUTO_TEST_CASE(StallMonitorWindowGrowsWithTheStepsBeforeTheLastProgress) {
  // 20 steps of progress, then none: with window 5 the drought must still
  // outlast the 20 steps before it, so the stall comes at step 40.
  qpm::StallMonitor monitor(5, 1e-14, Point(1.0, 1.0), 1.0);
  std::vector<qpm::Iterate> steps;
  for (int i = 1; i <= 20; ++i) steps.push_back(Point(1.0, 1.0 - 0.01 * i));
  for (int i = 0; i < 30; ++i) steps.push_back(Point(1.0, 0.9));
  BOOST_TEST(FirstStall(&monitor, steps) == 40);
}

BOOST_AUTO_TEST_CASE(StallMonitorEndsACrawlOfStepsBelowTheLastPlaceOfQAfterItsOwnWindow) {
  // 20 steps of progress, then steps that lower Q by 1e-12 of itself (a new
  // low each, beyond the rounding of 1e-14) while ||grad Q|| stays: counted
  // as progress, they never stall; when those steps' predicted decreases
  // were below Q's last place, 5 of them in a row end it at step 25.
  std::vector<qpm::Iterate> steps;
  for (int i = 1; i <= 20; ++i) steps.push_back(Point(1.0 - 1e-3 * i, 1.0 - 0.01 * i));
  for (int i = 1; i <= 30; ++i) steps.push_back(Point(0.98 - 1e-12 * i, 0.9));
  qpm::StallMonitor measured(5, 1e-14, Point(1.0, 1.0), 1.0, 0.5, 5);
  BOOST_TEST(FirstStall(&measured, steps) == 0);
  qpm::StallMonitor below(5, 1e-14, Point(1.0, 1.0), 1.0, 0.5, 5);
  BOOST_TEST(FirstStall(&below, steps, 20) == 25);
  // Without its own window (the CG-based steps') the flag changes nothing.
  qpm::StallMonitor off(5, 1e-14, Point(1.0, 1.0), 1.0, 0.5, 0);
  BOOST_TEST(FirstStall(&off, steps, 20) == 0);
}

BOOST_AUTO_TEST_CASE(StallMonitorKeepsStepsBelowTheLastPlaceOfQThatHalveTheGradient) {
  // Newton's endgame: predicted decreases below Q's last place while
  // ||grad Q|| halves at every step, which is progress: no stall in 30 steps.
  std::vector<qpm::Iterate> steps;
  for (int i = 1; i <= 30; ++i) steps.push_back(Point(1.0, std::pow(0.4, i)));
  qpm::StallMonitor monitor(5, 1e-14, Point(1.0, 1.0), 1.0, 0.5, 5);
  BOOST_TEST(FirstStall(&monitor, steps, 0) == 0);
}

BOOST_AUTO_TEST_CASE(StallMonitorReadsQWithItsOwnBeta) {
  // Q = f + beta/2 ||c||^2 at the monitor's beta = 100: f falls, but
  // beta/2 ||c||^2 rises more; Q rises and ||grad Q|| is unchanged.
  qpm::Iterate start = Point(1.0, 1.0);
  start.c_squared = 0.01;  // Q = 1 + 0.5
  qpm::StallMonitor monitor(3, 1e-14, start, 100.0);
  qpm::Iterate worse = Point(0.9, 1.0);
  worse.c_squared = 0.02;  // Q = 0.9 + 1.0
  const std::vector<qpm::Iterate> steps(5, worse);
  BOOST_TEST(FirstStall(&monitor, steps) == 3);
}

BOOST_AUTO_TEST_CASE(CpuDeadlinePassesOnceItsCpuBudgetIsSpent) {
  const double budget = 0.05;
  const double start = qpm::CpuSeconds();
  qpm::CpuDeadline deadline(start + budget);
  BOOST_TEST(!deadline.Passed());
  long calls = 0;
  while (!deadline.Passed()) {
    BurnCpu(1e-4);
    ++calls;
  }
  const double used = qpm::CpuSeconds() - start;
  BOOST_TEST(calls > 0);
  BOOST_TEST(used >= budget);
  BOOST_TEST(used <= budget + 0.02);  // seen within a call or two of 0.1 ms
  BOOST_TEST(!deadline.wall_passed());
}

BOOST_AUTO_TEST_CASE(CpuDeadlineInThePastPassesAtOnce) {
  qpm::CpuDeadline deadline(qpm::CpuSeconds() - 1.0);
  BOOST_TEST(deadline.Passed());
  BOOST_TEST(!deadline.wall_passed());
}

BOOST_AUTO_TEST_CASE(CpuDeadlineAlsoPassesAtItsWallLimitWithoutSpendingCpu) {
  const double start = qpm::CpuSeconds();
  qpm::CpuDeadline deadline(start + 1e6, 0.05);
  BOOST_TEST(!deadline.Passed());
  BOOST_TEST(!deadline.wall_passed());
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  BOOST_TEST(deadline.Passed());
  BOOST_TEST(deadline.wall_passed());
  BOOST_TEST(qpm::CpuSeconds() - start < 0.05);  // the CPU budget was not what passed
}

BOOST_AUTO_TEST_CASE(EveryInnerSolverStopsWithTheTimeLimitStatusWhenItsDeadlinePasses) {
  const double budget = 0.05;
  for (qpm::InnerSolverType type : kAllInner) {
    SlowQuartic problem(4);
    problem.cpu_per_eval = 2e-3;
    qpm::PenaltyFunction q(&problem);
    qpm::Iterate x;
    q.Allocate(&x);
    x.x = Vector::LinSpaced(4, 0.5, 2.0);
    BOOST_REQUIRE(q.EvaluateValues(&x));
    BOOST_REQUIRE(q.EvaluateDerivatives(&x));
    const double q_start = x.Q(1.0);
    std::unique_ptr<qpm::InnerSolver> solver = MakeSolver(type, &q);
    const double start = qpm::CpuSeconds();
    qpm::CpuDeadline deadline(start + budget);
    qpm::InnerControl control;
    control.tolerance = qpm::FeasibilityTolerance{1.0, 1e-300, 0.0};
    control.max_iterations = 1000000;
    control.deadline = &deadline;
    const qpm::InnerSummary summary = solver->Minimize(control, &x);
    const double used = qpm::CpuSeconds() - start;
    BOOST_TEST_CONTEXT(qpm::ToString(type)) {
      BOOST_TEST(summary.status == qpm::InnerStatus::kTimeLimit);
      BOOST_TEST(summary.iterations > 0);
      BOOST_TEST(used >= budget);
      BOOST_TEST(used <= budget + 0.1);  // the deadline is checked every iteration
      BOOST_TEST(x.Q(1.0) < q_start);    // x holds the last accepted point
    }
  }
}

BOOST_AUTO_TEST_CASE(SolveEndsWithMaxCpuTimeOrMaxWallTimeWhicheverPasses) {
  const Vector x0 = (Vector(4) << 0.7, 1.3, -0.9, 2.1).finished();  // no step lands on 0
  for (qpm::InnerSolverType type : kAllInner) {
    BOOST_TEST_CONTEXT(qpm::ToString(type)) {
      qpm::Options o;
      o.mode = qpm::Mode::kPaper;
      o.inner_solver = type;
      o.paper.stationarity_tol = 1e-300;  // no subproblem converges in time
      SlowQuartic burns(4);
      burns.cpu_per_eval = 2e-3;
      o.max_cpu_time = 0.05;
      const qpm::Summary cpu = qpm::Solve(&burns, x0, o);
      BOOST_TEST(cpu.termination == qpm::TerminationType::kMaxCpuTime);
      BOOST_TEST(cpu.cpu_time >= 0.05);
      BOOST_TEST(cpu.inner_iterations > 0);

      SlowQuartic sleeps(4);
      sleeps.sleep_per_eval = 2e-3;
      o.max_cpu_time = 1e6;
      o.max_wall_time = 0.05;
      const auto start = std::chrono::steady_clock::now();
      const qpm::Summary wall = qpm::Solve(&sleeps, x0, o);
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      BOOST_TEST(wall.termination == qpm::TerminationType::kMaxWallTime);
      BOOST_TEST(elapsed >= 0.05);
      BOOST_TEST(wall.inner_iterations > 0);
    }
  }
}
