// The default mode as strategies (docs/algorithm.md, "The default mode"):
// ALGENCAN's safeguarded multiplier estimates and penalty update, tau =
// max(tol, ||c||), and Ipopt's termination test on the (scaled) problem.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "core/linalg/hash_bits.hpp"
#include "core/multipliers.hpp"
#include "core/outer/strategies.hpp"
#include "core/stationarity.hpp"

namespace qpm {

namespace {

// ||v||_inf over all processes (reduce.hpp).
double MaxNorm(const PenaltyFunction& q, const Vector& v) {
  return MaxNorm(q.layout().reduce(), v);
}

// Ipopt's test (Waechter & Biegler 2006, Sec. 2.1; TerminationOptions).
class IpoptTest : public ConvergenceTest {
 public:
  IpoptTest(const TerminationOptions& t, const ScaledProblem* scaling, const PenaltyFunction& q)
      : t_(t), scaling_(scaling) {
    if (scaling_) unscale_weights_ = UnscaleWeights(*scaling, q);
  }
  bool Converged(const PenaltyFunction& q, const Iterate& x, InnerStatus) const override {
    const Optimality o = Measure(q, x);
    return o.error <= t_.tol && o.dual_inf <= t_.dual_inf_tol && o.constr_viol <= t_.constr_viol_tol;
  }
  bool Acceptable(const PenaltyFunction& q, const Iterate& x) const override {
    const Optimality o = Measure(q, x);
    return o.error <= t_.acceptable_tol && o.dual_inf <= t_.acceptable_dual_inf_tol &&
           o.constr_viol <= t_.acceptable_constr_viol_tol;
  }
  bool Violated(const PenaltyFunction& q, const Iterate& x) const override {
    return Measure(q, x).constr_viol > t_.constr_viol_tol;
  }
  bool NearlyFeasible(const PenaltyFunction& q, const Iterate& x) const override {
    return Measure(q, x).constr_viol <= t_.acceptable_constr_viol_tol;
  }
  double stall_feasibility_tol() const override { return t_.tol; }
  int acceptable_iter() const override { return t_.acceptable_iter; }
  bool max_norm() const override { return true; }
  const char* converged_message() const override {
    return "optimality error <= tol (Ipopt's test)";
  }
  bool EndsSubproblem(const PenaltyFunction& q, const Iterate& x) const override {
    return Converged(q, x, InnerStatus::kConverged);
  }

 private:
  struct Optimality {
    double error = 0.0;        // E, scaled by s_d, of the problem solved
    double dual_inf = 0.0;     // ||grad_z L - z_L + z_U||_inf, unscaled problem
    double constr_viol = 0.0;  // ||c||_inf, unscaled problem
  };

  // Unscaled dual infeasibility from the scaled one (ScaledProblem: L~ = df L
  // with lambda~ = df lambda ./ dc): x entries divide by df, the slack entry
  // of row j multiplies by dc_j / df.
  static DualWeights UnscaleWeights(const ScaledProblem& scaling, const PenaltyFunction& q) {
    const double df = std::abs(scaling.objective_factor());
    DualWeights w;
    w.x = 1.0 / df;
    w.slacks.resize(q.layout().num_slacks());
    for (int i = 0; i < q.layout().num_slacks(); ++i) {
      w.slacks[i] = scaling.constraint_factors()[q.layout().slack_row(i)] / df;
    }
    return w;
  }

  // E = max(dual_inf / s_d, constr_viol, compl / s_c) with s_d =
  // max(s_max, (||y||_1 + ||z||_1) / (m + n)) / s_max. Complementarity is
  // zero by construction: bound multipliers are nonzero only on a bound.
  Optimality Measure(const PenaltyFunction& q, const Iterate& x) const {
    const DualMeasures d = Dual(q, x, scaling_ ? &unscale_weights_ : nullptr);
    const MeritFunction& merit = q.merit();
    double y_l1 = 0.0;
    for (int j = 0; j < q.layout().m(); ++j) {
      y_l1 += std::abs((merit.has_multipliers() ? merit.multipliers()[j] : 0.0) + merit.beta() * x.c[j]);
    }
    y_l1 = q.layout().reduce().Sum(y_l1);
    const double count = std::max(1L, Count(q.layout().reduce(), q.layout().m() + q.layout().n()));
    const double s_d = std::max(t_.s_max, (y_l1 + d.bound_multipliers_l1) / count) / t_.s_max;
    Optimality o;
    o.constr_viol = MaxNorm(q, x.c);
    o.error = std::max(d.dual_inf / s_d, o.constr_viol);
    o.dual_inf = scaling_ ? d.weighted_dual_inf : d.dual_inf;
    if (scaling_) {
      o.constr_viol = 0.0;
      for (int j = 0; j < q.layout().m(); ++j) {
        o.constr_viol = std::max(o.constr_viol, std::abs(x.c[j]) / scaling_->constraint_factors()[j]);
      }
      o.constr_viol = q.layout().reduce().Max(o.constr_viol);
    }
    return o;
  }

  TerminationOptions t_;
  const ScaledProblem* scaling_;
  DualWeights unscale_weights_;  // scaled -> unscaled dual infeasibility
};

// ALGENCAN's beta_0, and beta *= gamma only when ||c||_inf did not fall
// below feasibility_decrease times its value before the subproblem
// (docs/algorithm.md, "The default mode").
class ConditionalPenalty : public PenaltyUpdate {
 public:
  ConditionalPenalty(const Options& o, const Reductions& r) : o_(o), r_(r) {}
  double Start(const PenaltyFunction& q, const Iterate& x0) override {
    previous_c_max_ = MaxNorm(q, x0.c);
    return o_.penalty_init > 0.0 ? o_.penalty_init : Automatic(q, x0);
  }
  // At least ||lambda_0||^2 / (2 max(1, |f|)): the merit's gain from moving
  // to c = -lambda_0 / beta, ||lambda_0||^2 / (2 beta), stays within f's
  // scale (docs/algorithm.md, "The default mode").
  double Seeded(double beta, const PenaltyFunction& q, const Iterate& x0) override {
    if (o_.penalty_init > 0.0) return beta;
    const double lambda2 = q.layout().reduce().Sum(q.merit().multipliers().squaredNorm());
    const double floor = lambda2 / (2.0 * std::max(1.0, std::abs(x0.f)));
    return std::max(beta, std::min(floor, o_.multipliers.penalty_init_max));
  }
  // After the first subproblem there is no earlier multiplier step to judge:
  // x_0's violation says nothing about lambda_0 (ALGENCAN tests from k = 1).
  double Next(double beta, const Iterate& x, long, int k) override {
    const double c_max = MaxNorm(r_, x.c);
    if (k > 0 && c_max > o_.multipliers.feasibility_decrease * previous_c_max_) {
      beta *= o_.multipliers.penalty_increase;
    }
    previous_c_max_ = c_max;
    return beta;
  }
  // At most 1000 times beta_0's rule at x_0: the beta reached at a
  // stationary point of the violation can be far larger, and its rounding
  // noise would stall the new path.
  double Restart(double beta, const PenaltyFunction& q, const Iterate& x0) override {
    previous_c_max_ = MaxNorm(q, x0.c);
    return std::min(beta, 1e3 * Automatic(q, x0));
  }
  double runaway_factor() const override {
    return std::max(o_.runaway_penalty_factor, o_.penalty_growth);
  }

 private:
  // 10 max(1, |f|) / max(u, ||c||^2 / 2), u = min(m, 2 / ||c||^2), clipped
  // (docs/algorithm.md, "The default mode").
  double Automatic(const PenaltyFunction& q, const Iterate& x0) const {
    const MultiplierOptions& m = o_.multipliers;
    const double half_c2 = 0.5 * x0.c_squared;
    const double rows = std::max(1L, Count(q.layout().reduce(), q.layout().m()));
    const double unit = half_c2 > 0.0 ? std::min(rows, 1.0 / half_c2) : rows;
    const double beta = 10.0 * std::max(1.0, std::abs(x0.f)) / std::max(half_c2, unit);
    return std::min(std::max(beta, m.penalty_init_min), m.penalty_init_max);
  }

  const Options o_;
  const Reductions& r_;
  double previous_c_max_ = 0.0;  // ||c||_inf before the subproblem
};

// lambda_{k+1} = P(lambda_k + d), P the projection onto [-max_multiplier,
// max_multiplier]^m (ALGENCAN's safeguard), d = beta_k c(x_{k+1}) (the
// first-order step) or what Step() makes.
class FirstOrderMultipliers : public MultiplierUpdate {
 public:
  explicit FirstOrderMultipliers(const Options& o) : o_(o) {}
  // The user's lambda (warm start), else the least-squares estimate, else 0.
  void Seed(const Vector& lambda0, PenaltyFunction* q, Iterate* x0) override {
    Vector lambda = Vector::Zero(q->layout().m());
    const bool given = q->layout().reduce().Min(lambda0.size() == q->layout().m() ? 1.0 : 0.0) > 0.0;
    if (given && q->layout().any_rows()) {
      lambda = lambda0;
    } else if (o_.multipliers.least_squares_init) {
      lambda = LeastSquaresMultipliers(*q, *x0, o_.multipliers.init_max, q->workspace());
    }
    q->merit().SetMultipliers(lambda);
    q->merit().Refresh(x0);
  }
  // lambda + beta c only where it explains grad f at x at least as well as
  // lambda does (docs/algorithm.md, "The default mode").
  void Update(const Iterate& x, FaceSolve* newton, PenaltyFunction* q) override {
    wait_ = skip_ = 0;
    if (Dual(*q, x).dual_inf > DualInfeasibilityAtMultipliers(*q, x, q->workspace())) return;
    Vector lambda = q->merit().multipliers();
    if (!Step(x, newton, q, &lambda)) lambda += q->merit().beta() * x.c;
    Project(o_.multipliers.max_multiplier, &lambda);
    q->merit().SetMultipliers(lambda);
  }
  void Reset(PenaltyFunction* q) override {
    q->merit().SetMultipliers(Vector::Zero(q->layout().m()));
  }
  // docs/algorithm.md, "Multipliers at the end".
  bool AdoptLeastSquaresIfConverged(const ConvergenceTest& test, InnerStatus status,
                                    PenaltyFunction* q, Iterate* x) override {
    return Feasible(test, *q, *x) && TryLeastSquares(test, status, q, x, Keep::kIfConverged);
  }
  bool PolishAfterStall(const ConvergenceTest& test, PenaltyFunction* q, Iterate* x) override {
    if (polishes_ >= kMaxPolishes || !q->layout().any_rows() || !test.NearlyFeasible(*q, *x)) {
      return false;
    }
    ++polishes_;
    SetLeastSquares(q, x);
    wait_ = skip_ = 0;
    return true;
  }
  // Near the end, grad Q's error is beta J^T (the rounding of c), and the
  // steps that chase it crawl (docs/algorithm.md, "Multipliers at the end"):
  // the subproblem ends where the least-squares multipliers pass the test,
  // which the outer loop's verdict then adopts (AdoptLeastSquaresIfConverged);
  // each failed try doubles the inner iterations to the next one.
  bool EndsSubproblem(const ConvergenceTest& test, PenaltyFunction* q, Iterate* x) override {
    if (!Feasible(test, *q, *x)) return false;
    if (skip_ > 0) return --skip_, false;
    if (TryLeastSquares(test, InnerStatus::kConverged, q, x, Keep::kNever)) return true;
    skip_ = wait_ = std::max(1L, 2 * wait_);
    return false;
  }

 private:
  static void Project(double max_abs, Vector* lambda) {
    *lambda = lambda->cwiseMax(-max_abs).cwiseMin(max_abs);
  }
  bool Feasible(const ConvergenceTest& test, const PenaltyFunction& q, const Iterate& x) const {
    return q.layout().any_rows() && MaxNorm(q, x.c) <= o_.termination.tol && !test.Violated(q, x);
  }
  // lambda such that lambda + beta c(x) is the least-squares estimate at x
  // (solved from lambda + beta c), and Q refreshed at x.
  // The estimate the subproblem's end tried is the one the verdict adopts:
  // the same point (its bits' hash, no copy of z) and guess reuse it,
  // decided over every process (the solve's reductions are collective).
  void SetLeastSquares(PenaltyFunction* q, Iterate* x) {
    const Vector guess = q->merit().multipliers() + q->merit().beta() * x->c;
    const std::uint64_t at = HashBits(x->x);
    const bool here = has_estimate_ && at == estimated_at_ && guess == estimated_from_;
    if (!(q->layout().reduce().Min(here ? 1.0 : 0.0) > 0.0)) {
      estimate_ = AccurateLeastSquaresMultipliers(*q, *x, guess, o_.tr.factor_flops_per_entry,
                                                  q->workspace());
      has_estimate_ = true, estimated_at_ = at, estimated_from_ = guess;
    }
    q->merit().SetMultipliers(estimate_ - q->merit().beta() * x->c);
    q->merit().Refresh(x);
  }
  bool has_estimate_ = false;
  std::uint64_t estimated_at_ = 0;
  Vector estimate_, estimated_from_;  // m entries each
  // Whether the least-squares multipliers stay where the test holds with them.
  enum class Keep { kIfConverged, kNever };
  // The test with the least-squares multipliers at x; q and x are left as
  // they were unless `keep` says otherwise.
  bool TryLeastSquares(const ConvergenceTest& test, InnerStatus status, PenaltyFunction* q,
                       Iterate* x, Keep keep) {
    const Vector first_order = q->merit().multipliers();
    SetLeastSquares(q, x);
    const bool converged = test.Converged(*q, *x, status);
    if (converged && keep == Keep::kIfConverged) return true;
    q->merit().SetMultipliers(first_order);
    q->merit().Refresh(x);
    return converged;
  }

  static constexpr int kMaxPolishes = 3;
  int polishes_ = 0;
  long wait_ = 0;  // inner iterations between tries
  long skip_ = 0;  // left before the next try

 protected:
  // lambda += another step than the first-order one; false: none made.
  virtual bool Step(const Iterate&, FaceSolve*, PenaltyFunction*, Vector*) { return false; }

  const Options o_;
};

// The Newton step of the dual function where the inner solver factors the
// Hessian of Q and ||c||_inf <= newton_max_violation (docs/algorithm.md,
// "Newton multiplier step"), else the first-order one.
class NewtonMultipliers : public FirstOrderMultipliers {
 public:
  using FirstOrderMultipliers::FirstOrderMultipliers;

 private:
  bool Step(const Iterate& x, FaceSolve* newton, PenaltyFunction* q, Vector* lambda) override {
    if (MaxNorm(*q, x.c) > o_.multipliers.newton_max_violation) return false;
    const std::optional<AssembledPenalty> assembled = q->assembled();  // a factor needs one
    if (!assembled) return false;
    return NewtonMultiplierStep(*assembled, x, o_.multipliers.newton_cg_iter, newton, lambda);
  }
};

// tau = max(tol, ||c||) (eps0 = eps1 = tol), and tau = tol from the first
// subproblem that ended at a stationary point of ||c|| without lowering it;
// only such tight subproblems count toward local infeasibility
// (docs/algorithm.md, "Local infeasibility").
class TighteningTolerance : public SubproblemTolerance {
 public:
  TighteningTolerance(const Options& o, const Reductions& r) : o_(o), r_(r) {}
  // Near feasibility (||c||_inf <= 1) a subproblem must also cut its start's
  // stationarity tenfold: tau(x) alone lets it end where it began, and the
  // penalty then grows for a lack of progress it never tried to make
  // (docs/algorithm.md, "The default mode").
  void Start(const Iterate& x) override {
    const double c_max = MaxNorm(r_, x.c);
    progress_cap_ = c_max <= kNearFeasible ? kProgress * x.grad_q_norm
                                           : std::numeric_limits<double>::infinity();
  }
  FeasibilityTolerance Tolerance() const override {
    const double tol = o_.termination.tol;
    return FeasibilityTolerance{tol, tol, tight_ ? 0.0 : std::min(o_.tolerance_cap, progress_cap_)};
  }
  void Observe(const OuterRecord& r, double c_before, int k) override {
    if (!tight_ && r.violation_stationarity <= o_.infeasibility_stationarity_tol &&
        !(r.c_norm < (1.0 - o_.infeasibility_decrease) * c_before)) {
      tight_ = true, tight_since_ = k;
    }
  }
  bool tight() const override { return tight_; }
  bool WindowCounts(int k, int window) const override {
    return tight_ && k - tight_since_ >= window;
  }
  void Reset() override { tight_ = false; }

 private:
  const Options o_;
  const Reductions& r_;
  bool tight_ = false;
  int tight_since_ = 0;  // the subproblem that made it tight
  static constexpr double kNearFeasible = 1.0;
  static constexpr double kProgress = 0.1;
  double progress_cap_ = std::numeric_limits<double>::infinity();
};

// ||z|| far from the start is not a runaway by itself (a solution can be
// far from x_0); f falling counts only where ||z||_inf grew tenfold. At a
// feasible point: ||z||_inf beyond diverging_iterates_tol is Ipopt's
// divergence; the first fall of f is followed (docs/algorithm.md, "Runaway
// subproblems": a minimizer far away, or an objective unbounded below, which
// the relative radius cap then carries past diverging_iterates_tol); three
// more runaways of f there mean unboundedness too.
class DefaultRunaway : public RunawayTest {
 public:
  explicit DefaultRunaway(const Reductions& r) : r_(r) {}
  void SetLimits(const Iterate& start, double, InnerControl* control) const override {
    control->objective_runaway_min_z = 10.0 * std::max(MaxNorm(r_, start.x), 1.0);
  }
  bool Unbounded(int feasible_runaways) const override { return feasible_runaways >= 3; }
  Feasible OnFeasibleRunaway(const InnerSummary& inner, double diverging_iterates_tol,
                             bool followed) const override {
    if (inner.runaway_z_max > diverging_iterates_tol) return Feasible::kDiverged;
    return inner.runaway_objective && !followed ? Feasible::kFollow : Feasible::kRestart;
  }

 private:
  const Reductions& r_;
};

}  // namespace

Strategies DefaultStrategies(const Options& options, const ScaledProblem* scaling,
                             const PenaltyFunction& q) {
  Strategies s;
  s.convergence = std::make_unique<IpoptTest>(options.termination, scaling, q);
  s.penalty = std::make_unique<ConditionalPenalty>(options, q.layout().reduce());
  if (options.multipliers.newton_cg_iter > 0) {
    s.multipliers = std::make_unique<NewtonMultipliers>(options);
  } else {
    s.multipliers = std::make_unique<FirstOrderMultipliers>(options);
  }
  s.tolerance = std::make_unique<TighteningTolerance>(options, q.layout().reduce());
  s.runaway = std::make_unique<DefaultRunaway>(q.layout().reduce());
  s.feasibility_restarts = 1;
  s.held_stall_raises = options.max_held_stalls;
  return s;
}

}  // namespace qpm
