// The paper's Algorithm 1 (Sec. 2) as strategies: lambda = 0, beta_{k+1} =
// alpha beta_k, tau of Definition 2.1 from (eps0, eps1, tau_cap), and the
// stop ||c(x_{k+1})||_2 <= eps0 after a subproblem that met (2.4).
#include <algorithm>

#include "core/outer/strategies.hpp"

namespace qpm {

namespace {

class PaperTest : public ConvergenceTest {
 public:
  explicit PaperTest(const PaperTolerances& t) : t_(t) {}
  bool Converged(const PenaltyFunction&, const Iterate& x, InnerStatus status) const override {
    return status == InnerStatus::kConverged && x.c_norm() <= t_.feasibility_tol;
  }
  bool Acceptable(const PenaltyFunction&, const Iterate& x) const override {
    return x.c_norm() <= t_.acceptable_feasibility_tol &&
           x.grad_q_norm <= t_.acceptable_stationarity_tol;
  }
  bool Violated(const PenaltyFunction&, const Iterate& x) const override {
    return x.c_norm() > t_.feasibility_tol;
  }
  bool NearlyFeasible(const PenaltyFunction&, const Iterate& x) const override {
    return x.c_norm() <= t_.acceptable_feasibility_tol;
  }
  double stall_feasibility_tol() const override { return t_.feasibility_tol; }
  int acceptable_iter() const override { return 0; }
  bool max_norm() const override { return false; }
  const char* converged_message() const override {
    return "||c|| <= eps0 and ||grad Q|| <= eps1";
  }

 private:
  PaperTolerances t_;
};

// beta_{k+1} = alpha_k beta_k: the paper's fixed alpha, or the adaptive rule
// (Options::penalty_growth_mode; docs/algorithm.md, "Adaptive penalty growth").
class GeometricPenalty : public PenaltyUpdate {
 public:
  explicit GeometricPenalty(const Options& o) : o_(o), alpha_(o.penalty_growth) {}
  double Start(const PenaltyFunction&, const Iterate&) override {
    return o_.PaperPenaltyInit();
  }
  double Seeded(double beta, const PenaltyFunction&, const Iterate&) override { return beta; }
  double Next(double beta, const Iterate&, long inner_iterations, int) override {
    return beta * Growth(inner_iterations);
  }
  double Restart(double beta, const PenaltyFunction&, const Iterate&) override { return beta; }
  double runaway_factor() const override { return std::max(o_.runaway_penalty_factor, alpha_); }

 private:
  double Growth(long inner_iterations) {
    if (o_.penalty_growth_mode == PenaltyGrowthMode::kFixed) return o_.penalty_growth;
    if (inner_iterations <= o_.cheap_subproblem) {
      alpha_ = std::min(2.0 * alpha_, o_.penalty_growth_max);
    } else if (inner_iterations > Options::kCostlySubproblemFactor * o_.cheap_subproblem) {
      alpha_ = std::max(0.5 * alpha_, o_.penalty_growth);
    }
    return alpha_;
  }

  const Options o_;
  double alpha_;
};

// The pure penalty: no estimates, lambda = beta c at the end.
class NoMultipliers : public MultiplierUpdate {
 public:
  void Seed(const Vector&, PenaltyFunction*, Iterate*) override {}
  void Update(const Iterate&, FaceSolve*, PenaltyFunction*) override {}
  void Reset(PenaltyFunction*) override {}
  bool AdoptLeastSquaresIfConverged(const ConvergenceTest&, InnerStatus, PenaltyFunction*,
                                    Iterate*) override {
    return false;
  }
};

// Definition 2.1 with the paper's (eps0, eps1, tau_cap); every window of
// subproblems counts.
class PaperTolerance : public SubproblemTolerance {
 public:
  explicit PaperTolerance(const Options& o)
      : tau_{o.paper.feasibility_tol, o.paper.stationarity_tol, o.tolerance_cap} {}
  FeasibilityTolerance Tolerance() const override { return tau_; }
  void Observe(const OuterRecord&, double, int) override {}
  bool tight() const override { return false; }
  bool WindowCounts(int, int) const override { return true; }
  void Reset() override {}

 private:
  FeasibilityTolerance tau_;
};

// ||z||_inf far beyond the start is a runaway too; runaways never mean
// unboundedness by themselves.
class PaperRunaway : public RunawayTest {
 public:
  explicit PaperRunaway(const Reductions& r) : r_(r) {}
  void SetLimits(const Iterate& start, double kappa, InnerControl* control) const override {
    control->max_abs_z = std::min(control->max_abs_z, kappa * std::max(MaxNorm(r_, start.x), 1.0));
  }
  bool Unbounded(int) const override { return false; }
  Feasible OnFeasibleRunaway(const InnerSummary&, double, bool) const override {
    return Feasible::kRestart;
  }

 private:
  const Reductions& r_;
};

}  // namespace

Strategies PaperStrategies(const Options& options, const PenaltyFunction& q) {
  Strategies s;
  s.convergence = std::make_unique<PaperTest>(options.paper);
  s.penalty = std::make_unique<GeometricPenalty>(options);
  s.multipliers = std::make_unique<NoMultipliers>();
  s.tolerance = std::make_unique<PaperTolerance>(options);
  s.runaway = std::make_unique<PaperRunaway>(q.layout().reduce());
  s.feasibility_restarts = 0;
  return s;
}

}  // namespace qpm
