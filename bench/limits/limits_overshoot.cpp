// How far past its limit a solve runs: for max_iter, max_cpu_time and
// qpm_max_wall_time, and for each inner solver, the iterations, CPU seconds or
// wall seconds OptimizeTNLP actually took, against the limit (issue #6: the
// overshoot must be at most one inner iteration).
//
//   limits_overshoot [--iters 1,10,300] [--times 0.05,0.2,1.0] [--big-n 100000]
//                    [--slow-n 1000] [--delay-ms 2] [--tol 1e-9] [--models big,slow]
//                    [--solvers gradient-descent,trust-region,lbfgs]
//
// Two models: `big`, Rosenbrock on the sphere with n = 1e5 (fast callbacks,
// ~1e5 flops each), and `slow`, the same with n = 1e3 where eval_f,
// eval_grad_f and eval_h each take `delay-ms`: a sleep for the max_iter and
// wall-time runs, a busy-wait on the thread's CPU clock for the CPU-time runs
// (sleeping burns no CPU). tol is small enough that no run ends before its
// limit (the status column shows it); max_iter stops at 300 because L-BFGS
// stalls within the acceptable tolerances after ~450 iterations at tol 1e-9.
//
// Measured: CPU seconds (std::clock, the process CPU clock, as qpm reads it)
// and wall seconds (steady_clock) around OptimizeTNLP; iterations from
// Statistics()->IterationCount() and the intermediate_callback calls (one at
// the start point plus one per inner iteration); the longest stretch between
// the last two callbacks (the last inner iteration), the stretch from the start
// to the first callback (setup and the start point's evaluation) and from the
// last callback to the return (wrap-up: final values, finalize_solution).
// The overshoot is the measured figure minus the limit, also divided by the
// mean inner iteration (measured / iterations). The limits are checked before
// each inner iteration, so the deadline passed during the last one and
// (overshoot - wrap-up) / last iteration must be <= 1.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <qpm/qpm.hpp>

#include "forwarding_tnlp.hpp"
#include "rosenbrock_sphere_tnlp.hpp"

using Ipopt::Index;
using Ipopt::Number;
using Ipopt::SmartPtr;

namespace {

double CpuNow() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

double WallNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double ThreadCpuNow() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

enum class Delay { kNone, kSleep, kSpin };

// Forwards everything to another TNLP; eval_f, eval_grad_f and eval_h first
// wait (sleep or burn CPU); intermediate_callback records when it was called.
class SlowTnlp : public qpm_test::ForwardingTnlp {
 public:
  SlowTnlp(SmartPtr<Ipopt::TNLP> inner, Delay delay, double seconds)
      : ForwardingTnlp(inner), delay_(delay), seconds_(seconds) {}

  bool eval_f(Index n, const Number* x, bool new_x, Number& f) override {
    Wait();
    return ForwardingTnlp::eval_f(n, x, new_x, f);
  }
  bool eval_grad_f(Index n, const Number* x, bool new_x, Number* grad_f) override {
    Wait();
    return ForwardingTnlp::eval_grad_f(n, x, new_x, grad_f);
  }
  bool eval_h(Index n, const Number* x, bool new_x, Number obj_factor, Index m,
              const Number* lambda, bool new_lambda, Index nele_hess, Index* i_row, Index* j_col,
              Number* values) override {
    if (values) Wait();
    return ForwardingTnlp::eval_h(n, x, new_x, obj_factor, m, lambda, new_lambda, nele_hess, i_row,
                                  j_col, values);
  }
  bool intermediate_callback(Ipopt::AlgorithmMode, Index, Number, Number, Number, Number, Number,
                             Number, Number, Number, Index, const Ipopt::IpoptData*,
                             Ipopt::IpoptCalculatedQuantities*) override {
    cpu_stamps.push_back(CpuNow());
    wall_stamps.push_back(WallNow());
    return true;
  }

  std::vector<double> cpu_stamps, wall_stamps;  // one per intermediate_callback

 private:
  void Wait() const {
    if (delay_ == Delay::kSleep) {
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds_));
    } else if (delay_ == Delay::kSpin) {
      const double until = ThreadCpuNow() + seconds_;
      while (ThreadCpuNow() < until) {
      }
    }
  }

  Delay delay_;
  double seconds_;
};

struct Config {
  std::vector<double> iters{1, 10, 300};
  std::vector<double> times{0.05, 0.2, 1.0};
  std::vector<std::string> models{"big", "slow"};
  std::vector<std::string> solvers{"gradient-descent", "trust-region", "lbfgs"};
  Index big_n = 100000;
  Index slow_n = 1000;
  double delay_ms = 2.0;
  double tol = 1e-9;
};

struct Run {
  std::string status;
  Index iterations = 0;
  long callbacks = 0;
  double cpu = 0.0, wall = 0.0;
  double last_cpu = 0.0, last_wall = 0.0;        // between the last two callbacks
  double head_cpu = 0.0, head_wall = 0.0;        // start to the first callback
  double tail_cpu = 0.0, tail_wall = 0.0;        // last callback to the return
};

std::string StatusName(Ipopt::ApplicationReturnStatus s) {
  switch (s) {
    case Ipopt::Solve_Succeeded: return "Solve_Succeeded";
    case Ipopt::Solved_To_Acceptable_Level: return "Solved_To_Acceptable_Level";
    case Ipopt::Maximum_Iterations_Exceeded: return "Maximum_Iterations_Exceeded";
    case Ipopt::Maximum_CpuTime_Exceeded: return "Maximum_CpuTime_Exceeded";
    case Ipopt::Search_Direction_Becomes_Too_Small: return "Search_Direction_Becomes_Too_Small";
    case Ipopt::User_Requested_Stop: return "User_Requested_Stop";
    default: {
      std::ostringstream o;
      o << "status_" << static_cast<int>(s);
      return o.str();
    }
  }
}

double LastGap(const std::vector<double>& stamps) {
  const size_t k = stamps.size();
  return k >= 2 ? stamps[k - 1] - stamps[k - 2] : 0.0;
}

Run Solve(const Config& c, const std::string& model, const std::string& solver,
          const std::string& limit, double value) {
  const bool slow = model == "slow";
  const Delay delay = !slow ? Delay::kNone : limit == "max_cpu_time" ? Delay::kSpin : Delay::kSleep;
  SmartPtr<SlowTnlp> tnlp = new SlowTnlp(new RosenbrockSphereTnlp(slow ? c.slow_n : c.big_n, c.tol),
                                         delay, 1e-3 * c.delay_ms);
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetNumericValue("tol", c.tol);
  app->Options()->SetStringValue("qpm_inner_solver", solver);
  if (limit == "max_iter") app->Options()->SetIntegerValue("max_iter", static_cast<Index>(value));
  if (limit == "max_cpu_time") app->Options()->SetNumericValue("max_cpu_time", value);
  if (limit == "qpm_max_wall_time") app->Options()->SetNumericValue("qpm_max_wall_time", value);
  app->Initialize("");
  Run r;
  const double cpu0 = CpuNow(), wall0 = WallNow();
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(GetRawPtr(tnlp));
  r.cpu = CpuNow() - cpu0;
  r.wall = WallNow() - wall0;
  r.status = StatusName(status);
  r.iterations = app->Statistics()->IterationCount();
  r.callbacks = static_cast<long>(tnlp->cpu_stamps.size());
  r.last_cpu = LastGap(tnlp->cpu_stamps);
  r.last_wall = LastGap(tnlp->wall_stamps);
  if (r.callbacks > 0) {
    r.head_cpu = tnlp->cpu_stamps.front() - cpu0;
    r.head_wall = tnlp->wall_stamps.front() - wall0;
    r.tail_cpu = cpu0 + r.cpu - tnlp->cpu_stamps.back();
    r.tail_wall = wall0 + r.wall - tnlp->wall_stamps.back();
  }
  return r;
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; std::getline(in, w, ',');) out.push_back(w);
  return out;
}

std::vector<double> SplitNumbers(const std::string& s) {
  std::vector<double> out;
  for (const std::string& w : SplitWords(s)) out.push_back(std::atof(w.c_str()));
  return out;
}

// max_iter rows give wall seconds in the timing columns; time-limit rows give
// the clock of their limit (CPU for max_cpu_time, wall for qpm_max_wall_time).
void PrintRow(const std::string& model, const std::string& solver, const std::string& limit,
              double value, const Run& r) {
  const bool cpu = limit == "max_cpu_time";
  const double measured = cpu ? r.cpu : r.wall;
  const double mean = r.iterations ? measured / r.iterations : measured;
  const double last = cpu ? r.last_cpu : r.last_wall;
  const double head = cpu ? r.head_cpu : r.head_wall;
  const double tail = cpu ? r.tail_cpu : r.tail_wall;
  char measure[96], over[96], in_mean[96], in_last[96];
  if (limit == "max_iter") {
    const long extra = static_cast<long>(r.iterations - value);
    std::snprintf(measure, sizeof measure, "%d iter, %ld callbacks", r.iterations, r.callbacks);
    std::snprintf(over, sizeof over, "%+ld iter", extra);
    std::snprintf(in_mean, sizeof in_mean, "%+ld", extra);
    std::snprintf(in_last, sizeof in_last, "-");
  } else {
    const double o = measured - value;
    std::snprintf(measure, sizeof measure, "%.4f s, %d iter", measured, r.iterations);
    std::snprintf(over, sizeof over, "%+.4f s", o);
    std::snprintf(in_mean, sizeof in_mean, "%+.2f", o / mean);
    std::snprintf(in_last, sizeof in_last, "%.2f", last > 0.0 ? (o - tail) / last : 0.0);
  }
  std::printf("| %s | %s | %s | %g | %s | %s | %s | %s | %.2g / %.2g | %.2g / %.2g | %s |\n",
              model.c_str(), solver.c_str(), limit.c_str(), value, measure, over, in_mean, in_last,
              mean, last, head, tail, r.status.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (a == "--iters") c.iters = SplitNumbers(next());
    else if (a == "--times") c.times = SplitNumbers(next());
    else if (a == "--models") c.models = SplitWords(next());
    else if (a == "--solvers") c.solvers = SplitWords(next());
    else if (a == "--big-n") c.big_n = std::atoi(next().c_str());
    else if (a == "--slow-n") c.slow_n = std::atoi(next().c_str());
    else if (a == "--delay-ms") c.delay_ms = std::atof(next().c_str());
    else if (a == "--tol") c.tol = std::atof(next().c_str());
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  std::printf("Models: big = Rosenbrock on the sphere, n = %d; slow = n = %d with %g ms in each "
              "eval_f / eval_grad_f / eval_h (sleep; CPU busy-wait for max_cpu_time). tol = %g.\n\n",
              c.big_n, c.slow_n, c.delay_ms, c.tol);
  std::printf("| model | solver | limit | value | measured | overshoot | overshoot in mean "
              "inner iterations | (overshoot - wrap-up) / last iteration | mean / last inner "
              "iteration (s) | setup / wrap-up (s) | status |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& model : c.models) {
    for (const std::string& solver : c.solvers) {
      for (double n : c.iters) PrintRow(model, solver, "max_iter", n, Solve(c, model, solver, "max_iter", n));
      for (const char* limit : {"max_cpu_time", "qpm_max_wall_time"}) {
        for (double t : c.times) PrintRow(model, solver, limit, t, Solve(c, model, solver, limit, t));
      }
    }
  }
  return 0;
}
