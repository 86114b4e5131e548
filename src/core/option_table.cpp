#include "qpm/core/option_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>

namespace qpm {

const char* ToString(OptionType type) {
  switch (type) {
    case OptionType::kNumber: return "number";
    case OptionType::kInteger: return "integer";
    case OptionType::kBool: return "yes/no";
    case OptionType::kEnum: return "string";
  }
  return "unknown";
}

namespace {

// "1e+20" -> "1e20", "1e-08" -> "1e-8".
std::string CompactExponent(std::string s) {
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::size_t digits = e + 1;
  if (s[digits] == '+') s.erase(digits, 1);
  if (s[digits] == '-') ++digits;
  while (digits + 1 < s.size() && s[digits] == '0') s.erase(digits, 1);
  return s;
}

}  // namespace

std::string FormatNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[40];
  int precision = 1;
  for (; precision < 17; ++precision) {  // the shortest text that reads back as `value`
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  // Plain digits for moderate magnitudes (500, 0.001); exponents beyond (1e4, 1e-4).
  const int exponent = value == 0.0 ? 0 : static_cast<int>(std::floor(std::log10(std::abs(value))));
  if (exponent >= -3 && exponent <= 3) {
    std::snprintf(text, sizeof text, "%.*g", std::max(precision, exponent + 1), value);
  } else {
    std::snprintf(text, sizeof text, "%.*e", precision - 1, value);
  }
  return CompactExponent(text);
}

bool OptionRange::Contains(double value) const {
  if (has_lower && !(lower_strict ? value > lower : value >= lower)) return false;
  if (has_upper && !(upper_strict ? value < upper : value <= upper)) return false;
  return true;
}

std::string OptionRange::ToString() const {
  const std::string lo = FormatNumber(lower), hi = FormatNumber(upper);
  if (has_lower && has_upper) {
    const char* left = lower_strict ? "(" : "[";
    const char* right = upper_strict ? ")" : "]";
    return "in " + (left + lo) + ", " + hi + right;
  }
  if (has_lower) return (lower_strict ? "> " : ">= ") + lo;
  if (has_upper) return (upper_strict ? "< " : "<= ") + hi;
  return "";
}

std::string OptionEntry::Format(double value) const {
  switch (type) {
    case OptionType::kNumber: return FormatNumber(value);
    case OptionType::kInteger: {
      char text[32];
      std::snprintf(text, sizeof text, "%.0f", value);  // in full: 10000000, not 1e7
      return text;
    }
    case OptionType::kBool:
    case OptionType::kEnum: {
      const int i = static_cast<int>(value);
      return i >= 0 && i < static_cast<int>(choices.size()) ? choices[i].name : "?";
    }
  }
  return "?";
}

int OptionEntry::ChoiceIndex(const std::string& choice) const {
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i].name == choice) return static_cast<int>(i);
  }
  return -1;
}

namespace {

// A field of Options seen as a double: enums as their index, bool as 0/1.
template <class T>
double ToDouble(T value) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<double>(static_cast<int>(value));
  } else {
    return static_cast<double>(value);
  }
}

template <class T>
void FromDouble(double value, T* field) {
  if constexpr (std::is_enum_v<T>) {
    *field = static_cast<T>(static_cast<int>(value));
  } else if constexpr (std::is_same_v<T, bool>) {
    *field = value != 0.0;
  } else {
    *field = static_cast<T>(value);
  }
}

struct Field {
  const char* path;
  std::function<double(const Options&)> get;
  std::function<void(Options*, double)> set;
};

// The field's path as text and its two accessors, from one spelling of it.
#define QPM_FIELD(path_)                                          \
  Field {                                                         \
    #path_, [](const Options& o) { return ToDouble(o.path_); },   \
        [](Options* o, double v) { FromDouble(v, &o->path_); }    \
  }

OptionRange AtLeast(double lower) { return {true, lower, false, false, 0.0, false}; }
OptionRange Above(double lower) { return {true, lower, true, false, 0.0, false}; }
OptionRange Below(double upper) { return {false, 0.0, false, true, upper, true}; }
OptionRange Open(double lower, double upper) { return {true, lower, true, true, upper, true}; }
OptionRange ClosedOpen(double lower, double upper) {
  return {true, lower, false, true, upper, true};
}
OptionRange Any() { return {}; }

OptionEntry Make(Field f, OptionType type, OptionRange range, std::string meaning) {
  OptionEntry e;
  e.name = e.field = f.path;
  e.registered = false;
  e.type = type;
  e.range = range;
  e.meaning = std::move(meaning);
  e.get = std::move(f.get);
  e.set = std::move(f.set);
  return e;
}

OptionEntry Number(Field f, OptionRange range, std::string meaning) {
  return Make(std::move(f), OptionType::kNumber, range, std::move(meaning));
}

OptionEntry Integer(Field f, OptionRange range, std::string meaning) {
  return Make(std::move(f), OptionType::kInteger, range, std::move(meaning));
}

OptionEntry Bool(Field f, std::string meaning, std::string no, std::string yes) {
  OptionEntry e = Make(std::move(f), OptionType::kBool, Any(), std::move(meaning));
  e.choices = {{"no", std::move(no)}, {"yes", std::move(yes)}};
  return e;
}

// `choices` in the order of the enum's values.
OptionEntry Enum(Field f, std::string meaning, std::vector<OptionChoice> choices) {
  OptionEntry e = Make(std::move(f), OptionType::kEnum, Any(), std::move(meaning));
  e.choices = std::move(choices);
  return e;
}

// Users set the field through Ipopt's options as `name`.
OptionEntry Registered(const char* name, OptionEntry e) {
  e.name = name;
  e.registered = true;
  return e;
}

OptionEntry WithSymbol(const char* symbol, OptionEntry e) {
  e.symbol = symbol;
  return e;
}

OptionEntry WithDetails(std::string details, OptionEntry e) {
  e.details = std::move(details);
  return e;
}

std::string Num(double value) { return FormatNumber(value); }

using Table = std::vector<OptionEntry>;

// Texts below quote other options' defaults through `d`, never as literals.
void AddRegisteredChoices(const Options& d, Table* t) {
  const std::string cheap = Num(d.cheap_subproblem);
  const std::string costly = Num(Options::kCostlySubproblemFactor * d.cheap_subproblem);
  t->push_back(Registered("qpm_mode", Enum(QPM_FIELD(mode),
      "Outer method.",
      {{"multipliers", "augmented Lagrangian f + lambda' c + beta/2 ||c||^2 with safeguarded "
                       "multiplier estimates, beta grown only when ||c||_inf did not fall below " +
                       Num(d.multipliers.feasibility_decrease) + " times its last value, Ipopt's "
                       "termination test (tol, dual_inf_tol, constr_viol_tol, ...)"},
       {"paper", "the paper's Algorithm 1 exactly: lambda = 0, beta *= alpha after every "
                 "subproblem, 2-norm tests on eps0 and eps1"}})));
  t->push_back(Registered("qpm_inner_solver", Enum(QPM_FIELD(inner_solver),
      "Inner solver for the penalty subproblems.",
      {{"gradient-descent", "steepest descent with Armijo backtracking (QPM-GD)"},
       {"trust-region", "trust region with truncated CG on exact Hessian-vector products (QPM-TR)"},
       {"lbfgs", "limited-memory BFGS; no eval_h (chosen automatically with "
                 "hessian_approximation limited-memory)"},
       {"interior", "primal-dual log-barrier Newton steps in (z, y) with Ipopt's filter line "
                    "search, one factorization of W(y) + beta J^T J + Sigma per step however many "
                    "bounds are active, finished by "
                    "the trust region (docs/algorithm.md, \"Interior steps on the bounds\"); "
                    "needs eval_h; the trust region where there are no bounds or W + beta J^T J "
                    "cannot be factored"}})));
  t->push_back(Registered("qpm_penalty_growth_mode", Enum(QPM_FIELD(penalty_growth_mode),
      "How beta grows between subproblems.",
      {{"fixed", "beta_{k+1} = qpm_penalty_growth * beta_k (the paper)"},
       {"adaptive", "alpha doubles after cheap subproblems (<= " + cheap + " inner iterations), "
                    "halves after costly ones (> " + costly + "), within "
                    "[qpm_penalty_growth, qpm_penalty_growth_max]"}})));
  t->push_back(Registered("qpm_penalty_growth_max", Number(QPM_FIELD(penalty_growth_max),
      Above(1.0), "Largest alpha of the adaptive mode.")));
  t->push_back(Registered("qpm_extrapolate", Bool(QPM_FIELD(extrapolate),
      "Start subproblems at a point extrapolated along the penalty path when it lowers Q.",
      "start at argmin of Q over {x_k, x_0} (the paper)",
      "also try x(beta) predicted from the last two solutions")));
  t->push_back(Registered("qpm_lbfgs_warm_start", Bool(QPM_FIELD(lbfgs.warm_start),
      "Keep L-BFGS curvature pairs across subproblems.",
      "clear them at each new beta", "keep them")));
  t->push_back(Registered("qpm_gd_trial_step", Enum(QPM_FIELD(gd.trial_step),
      "First trial step of each gradient-descent iteration.",
      {{"growth", Num(d.gd.step_growth) + " (gd.step_growth) times the last accepted step"},
       {"barzilai-borwein", "Barzilai-Borwein step s.s/s.y, then Armijo backtracking"}})));
  t->push_back(Registered("qpm_preconditioner", Enum(QPM_FIELD(tr.preconditioner),
      "Preconditioner of the trust region's truncated CG.",
      {{"none", "plain CG (the paper's QPM-TR)"},
       {"jacobi", "diagonal of W + beta J^T J"},
       {"penalty", "D + beta J^T J applied exactly (Woodbury; m x m factorization, dense up to "
                   "m = " + Num(d.tr.dense_limit) + "; jacobi where the sparse factor would be "
                   "dense)"},
       {"cholesky", "sparse Cholesky of W + beta J^T J (shifted where not positive definite) on "
                    "the active face: CG's first iterate is the Newton step; penalty where "
                    "J^T J would be dense"},
       {"auto", "cholesky where the symbolic analysis predicts its factorization affordable, "
                "else jacobi"},
       {"default", "the mode's: none with qpm_mode paper (the paper's QPM-TR), auto otherwise"}})));
  t->push_back(Registered("qpm_second_order_correction", Enum(QPM_FIELD(tr.correction),
      "What the trust region does with a trial step that Q rejects.",
      {{"none", "shrink the radius (the paper's QPM-TR)"},
       {"second-order", "first try the trial moved back toward the constraints' linearization "
                        "(one CG solve on the step's face; docs/algorithm.md)"},
       {"default", "the mode's: none with qpm_mode paper, second-order otherwise"}})));
}

void AddRegisteredNumbers(const Options& d, Table* t) {
  t->push_back(Registered("qpm_tr_max_radius", WithSymbol("Delta_max", Number(
      QPM_FIELD(tr.max_radius), Above(0.0), "Maximum trust-region radius (assumption A2)."))));
  t->push_back(Registered("qpm_penalty_init", WithSymbol("beta0", Number(
      QPM_FIELD(penalty_init), AtLeast(0.0), "Initial penalty parameter beta0; 0: the mode's own "
      "(1 in the paper's mode; in the default mode 10 max(1, |f(x_0)|) / max(u, ||c(x_0)||^2 / 2), "
      "u = min(m, 2 / ||c(x_0)||^2), clipped). The paper's mode needs 0 or >= 1."))));
  t->push_back(Registered("qpm_penalty_growth", WithSymbol("alpha", Number(
      QPM_FIELD(penalty_growth), Above(1.0), "Penalty growth factor alpha (> 1)."))));
  t->push_back(Registered("qpm_tolerance_cap", WithSymbol("tau_cap", WithDetails(
      "1e20 or more means +infinity (the paper's adaptive rule); 0 gives tau = eps1.",
      Number(QPM_FIELD(tolerance_cap), AtLeast(0.0),
             "tau_cap of the feasibility-aware tolerance "
             "tau(x) = max(eps1, min(tau_cap, eps1/eps0 ||c(x)||)).")))));
  t->push_back(Registered("qpm_runaway_factor", WithSymbol("kappa", WithDetails(
      "Q_beta can be unbounded below at small beta. After " + Num(d.max_runaway_restarts) +
          " restarts only ||x||_inf > diverging_iterates_tol is tested, and ends the solve "
          "with Diverging_Iterates.",
      Number(QPM_FIELD(runaway_violation_factor), Above(1.0),
             "kappa: a subproblem whose iterate reaches ||c|| > kappa max(||c(x_k)||, 1), "
             "f < f(x_k) - kappa max(|f(x_k)|, 1) or ||x||_inf > kappa max(||x_k||_inf, 1) is "
             "restarted from x_k with beta times max(" + Num(d.runaway_penalty_factor) +
             ", alpha).")))));
  t->push_back(Registered("qpm_max_wall_time", WithDetails(
      "Reported as Maximum_CpuTime_Exceeded, Ipopt 3.11's nearest return code.",
      Number(QPM_FIELD(max_wall_time), Any(),
             "Wall-clock limit in seconds (<= 0: none); Ipopt 3.11 has no max_wall_time."))));
  t->push_back(Registered("qpm_max_outer_iter", Integer(QPM_FIELD(max_outer_iter), AtLeast(0),
      "Maximum number of outer (penalty) iterations.")));
  t->push_back(Registered("qpm_max_inner_iter", WithDetails(
      "Ipopt's max_iter, when the user sets it, takes precedence (both count inner iterations).",
      Integer(QPM_FIELD(max_inner_iter), AtLeast(0),
              "Maximum total inner iterations when max_iter is not set."))));
}

// Outer loop fields that only the core API sets (or src/ipopt maps from
// Ipopt's own options).
void AddOuterLoop(const Options& d, Table* t) {
  t->push_back(Integer(QPM_FIELD(cheap_subproblem), AtLeast(0),
      "Adaptive mode: a subproblem of <= this many inner iterations doubles alpha, one of more "
      "than " + Num(Options::kCostlySubproblemFactor) + " times this many halves it."));
  t->push_back(Integer(QPM_FIELD(infeasibility_window), AtLeast(1),
      "Infeasible when this many consecutive subproblems lowered ||c|| by less than "
      "infeasibility_decrease (and the stationarity test holds)."));
  t->push_back(Number(QPM_FIELD(infeasibility_decrease), ClosedOpen(0.0, 1.0),
      "Relative decrease of ||c|| over infeasibility_window subproblems that counts as progress."));
  t->push_back(Number(QPM_FIELD(infeasibility_stationarity_tol), AtLeast(0.0),
      "Infeasible only where ||P_T(-J_z^T c)|| / ||c|| <= this (stationary point of ||c||)."));
  t->push_back(Integer(QPM_FIELD(max_stalled_subproblems), AtLeast(0),
      "Stalled subproblems that still lowered ||c|| and go on with a larger beta, per solve."));
  t->push_back(Integer(QPM_FIELD(max_held_stalls), AtLeast(0),
      "Default mode: stalled subproblems that did not lower ||c||, where f holds bounds against "
      "the violation's descent, going on with beta raised to where they yield, per solve."));
  t->push_back(Number(QPM_FIELD(runaway_penalty_factor), Above(1.0),
      "On a runaway restart beta grows by max(this, alpha) instead of alpha."));
  t->push_back(Integer(QPM_FIELD(max_runaway_restarts), AtLeast(0),
      "Runaway restarts per solve; after them ||z||_inf > diverging_iterates_tol ends the solve."));
  t->push_back(Number(QPM_FIELD(diverging_iterates_tol), Above(0.0),
      "||z||_inf above this is a runaway, and ends the solve once the restarts are used up "
      "(Ipopt's diverging_iterates_tol; default " + Num(d.diverging_iterates_tol) + ")."));
  t->push_back(Number(QPM_FIELD(max_cpu_time), Above(0.0),
      "Seconds of process CPU time (Ipopt's max_cpu_time)."));
  t->push_back(Number(QPM_FIELD(stall_rounding), AtLeast(0.0),
      "Stall monitors count a relative decrease of Q above this as progress."));
}

// The paper's tests (PaperTolerances), mapped from Ipopt's own options.
void AddPaperTolerances(Table* t) {
  t->push_back(WithSymbol("eps0", Number(QPM_FIELD(paper.feasibility_tol), Above(0.0),
      "Paper mode: stop when ||c(x_{k+1})||_2 <= eps0 (from Ipopt's constr_viol_tol or tol).")));
  t->push_back(WithSymbol("eps1", Number(QPM_FIELD(paper.stationarity_tol), Above(0.0),
      "Paper mode: subproblems stop at ||grad Q(x_{k+1})||_2 <= tau(x_{k+1}), tau >= eps1 "
      "(from Ipopt's dual_inf_tol or tol).")));
  t->push_back(Number(QPM_FIELD(paper.acceptable_feasibility_tol), AtLeast(0.0),
      "Paper mode: a stalled solve with ||c||_2 <= this (and the next test) ends acceptable."));
  t->push_back(Number(QPM_FIELD(paper.acceptable_stationarity_tol), AtLeast(0.0),
      "Paper mode: a stalled solve with stationarity measure <= this (and the last test) ends "
      "acceptable."));
}

// The default mode's multiplier estimates (MultiplierOptions) and Ipopt's
// termination test (TerminationOptions, mapped from Ipopt's own options).
void AddMultipliers(Table* t) {
  t->push_back(Number(QPM_FIELD(multipliers.max_multiplier), Above(0.0),
      "Safeguard: lambda is projected onto [-this, this]^m after each update."));
  t->push_back(WithSymbol("tau_c", Number(QPM_FIELD(multipliers.feasibility_decrease),
      Open(0.0, 1.0), "beta grows when ||c||_inf > this * its value before the subproblem.")));
  t->push_back(WithSymbol("gamma", Number(QPM_FIELD(multipliers.penalty_increase), Above(1.0),
      "... by this factor.")));
  t->push_back(Number(QPM_FIELD(multipliers.penalty_init_min), Above(0.0),
      "Lower clip of the default mode's automatic beta_0 (qpm_penalty_init 0)."));
  t->push_back(Number(QPM_FIELD(multipliers.penalty_init_max), Above(0.0),
      "Upper clip of the default mode's automatic beta_0 (qpm_penalty_init 0)."));
  t->push_back(Bool(QPM_FIELD(multipliers.least_squares_init),
      "lambda_0 from the least-squares estimate at x_0 (unless warm-started).",
      "lambda_0 = 0", "least squares"));
  t->push_back(Number(QPM_FIELD(multipliers.init_max), AtLeast(0.0),
      "A least-squares lambda_0 larger than this in max-norm is discarded (Ipopt's "
      "constr_mult_init_max)."));
  t->push_back(Integer(QPM_FIELD(multipliers.newton_cg_iter), AtLeast(0),
      "CG iterations of the Newton multiplier step, taken where the inner solver factors the "
      "Hessian of Q (0: the first-order step lambda + beta c always)."));
  t->push_back(Number(QPM_FIELD(multipliers.newton_max_violation), AtLeast(0.0),
      "The Newton multiplier step is taken only where ||c||_inf is at most this."));
  t->push_back(Bool(QPM_FIELD(scaling.gradient_based),
      "Ipopt's gradient-based NLP scaling at x_0 (default mode; from nlp_scaling_method).",
      "none", "gradient-based"));
  t->push_back(Number(QPM_FIELD(scaling.max_gradient), Above(0.0),
      "Ipopt's nlp_scaling_max_gradient: f and rows are scaled so their gradients at x_0 "
      "are at most this."));
  t->push_back(Number(QPM_FIELD(scaling.min_value), Above(0.0),
      "Ipopt's nlp_scaling_min_value: the smallest scaling factor."));
  t->push_back(Number(QPM_FIELD(scaling.obj_scaling), Any(),
      "Objective factor on top of the gradient-based one (nonzero; the Ipopt shell applies "
      "obj_scaling_factor itself)."));
  t->push_back(Number(QPM_FIELD(termination.tol), Above(0.0),
      "Ipopt's tol: scaled optimality error (max-norms) to reach."));
  t->push_back(Number(QPM_FIELD(termination.dual_inf_tol), Above(0.0),
      "Ipopt's dual_inf_tol: unscaled dual infeasibility to reach."));
  t->push_back(Number(QPM_FIELD(termination.constr_viol_tol), Above(0.0),
      "Ipopt's constr_viol_tol: unscaled constraint violation to reach."));
  t->push_back(Number(QPM_FIELD(termination.compl_inf_tol), Above(0.0),
      "Ipopt's compl_inf_tol: unscaled complementarity to reach."));
  t->push_back(Number(QPM_FIELD(termination.acceptable_tol), Above(0.0),
      "Ipopt's acceptable_tol."));
  t->push_back(Number(QPM_FIELD(termination.acceptable_dual_inf_tol), Above(0.0),
      "Ipopt's acceptable_dual_inf_tol."));
  t->push_back(Number(QPM_FIELD(termination.acceptable_constr_viol_tol), Above(0.0),
      "Ipopt's acceptable_constr_viol_tol."));
  t->push_back(Number(QPM_FIELD(termination.acceptable_compl_inf_tol), Above(0.0),
      "Ipopt's acceptable_compl_inf_tol."));
  t->push_back(Integer(QPM_FIELD(termination.acceptable_iter), AtLeast(0),
      "Ipopt's acceptable_iter, counted in outer iterations (0: only at a stall)."));
  t->push_back(Number(QPM_FIELD(termination.s_max), AtLeast(1.0),
      "Ipopt's s_max of the multiplier scaling s_d of the dual infeasibility."));
}

void AddGradientDescent(Table* t) {
  t->push_back(Number(QPM_FIELD(gd.line_search.armijo_c1), Open(0.0, 0.5),
      "GD Armijo sufficient decrease: Q(x + t d) <= Q(x) + c1 t grad Q . d."));
  t->push_back(Number(QPM_FIELD(gd.line_search.backtrack_factor), Open(0.0, 1.0),
      "GD backtracking: t <- this * t after a rejected trial."));
  t->push_back(Number(QPM_FIELD(gd.line_search.rounding_allowance), AtLeast(0.0),
      "GD line search: decreases below this * |Q(x)| are judged by the slope test."));
  t->push_back(Integer(QPM_FIELD(gd.line_search.max_backtracks), AtLeast(1),
      "GD line search: rejected trials per iteration before it has stalled."));
  t->push_back(Number(QPM_FIELD(gd.step_growth), AtLeast(1.0),
      "GD growth trial step: this * the last accepted t."));
  t->push_back(Number(QPM_FIELD(gd.initial_step), Above(0.0),
      "GD trial step t of the very first iteration (the step is -t g)."));
  t->push_back(Integer(QPM_FIELD(gd.stall_window), AtLeast(1),
      "GD stalls after max(this, steps before the last progress) steps without progress."));
}

void AddTrustRegion(Table* t) {
  t->push_back(Integer(QPM_FIELD(tr.dense_limit), Any(),
      "Penalty preconditioner: dense m x m factor when m <= this, sparse Cholesky above."));
  t->push_back(Number(QPM_FIELD(tr.factor_flops_per_product), AtLeast(0.0),
      "Auto preconditioner: the Cholesky factorization is affordable up to this many flops per "
      "flop of a product with H (and up to tr.factor_min_flops in any case)."));
  t->push_back(Number(QPM_FIELD(tr.factor_min_flops), AtLeast(0.0),
      "Auto preconditioner: factorizations of at most this many flops are affordable."));
  t->push_back(Number(QPM_FIELD(tr.factor_nonzeros_per_product), AtLeast(0.0),
      "Auto preconditioner: a factor is affordable up to this many entries per flop of a "
      "product with H (and up to tr.factor_min_nonzeros in any case)."));
  t->push_back(Number(QPM_FIELD(tr.factor_min_nonzeros), AtLeast(0.0),
      "Auto preconditioner: factors of at most this many entries are affordable."));
  t->push_back(Number(QPM_FIELD(tr.auto_trial_fraction), AtLeast(0.0),
      "Auto preconditioner, factorization beyond the flops budget only: one step with the "
      "Cholesky preconditioner, its counted work against the last jacobi step's, once a "
      "step's products with H cost this fraction of the predicted factorization; 0: never "
      "(a jacobi step cut at a cholesky step's counted work switches without it)."));
  t->push_back(Number(QPM_FIELD(tr.factor_flops_per_entry), Above(0.0),
      "Auto preconditioner's trial: a factorization's flops per entry a product with H "
      "streams in the same time."));
  t->push_back(WithSymbol("Delta_0", Number(QPM_FIELD(tr.initial_radius), AtLeast(0.0),
      "Initial trust-region radius (at most tr.max_radius). 0: the mode's: 1 with qpm_mode "
      "paper; otherwise tr.max_radius without bounds (the first trial is the whole step) and 1 "
      "with bounds (docs/algorithm.md, \"The first radius\").")));
  t->push_back(Number(QPM_FIELD(tr.eta_accept), Open(0.0, 1.0),
      "Accept the step when rho >= this."));
  t->push_back(Number(QPM_FIELD(tr.eta_expand), Below(1.0),
      "Grow the radius when rho > this at the boundary (above tr.eta_shrink)."));
  t->push_back(Number(QPM_FIELD(tr.eta_shrink), Any(),
      "Shrink the radius when rho < this (in [tr.eta_accept, tr.eta_expand))."));
  t->push_back(Number(QPM_FIELD(tr.expand_factor), Above(1.0),
      "Delta <- min(this * Delta, tr.max_radius) on expansion."));
  t->push_back(Number(QPM_FIELD(tr.shrink_factor), Open(0.0, 1.0),
      "Delta <- this * Delta on shrinking."));
  t->push_back(Number(QPM_FIELD(tr.exact_ratio), AtLeast(0.0),
      "With the cholesky preconditioner and no bounds, a boundary step with |rho - 1| <= this "
      "sets Delta to tr.max_radius; 0: never."));
  t->push_back(Number(QPM_FIELD(tr.cap_growth), AtLeast(1.0),
      "With the cholesky preconditioner, an accepted step at Delta = tr.max_radius with rho > "
      "tr.eta_expand multiplies the cap by this for the rest of the subproblem; 1: never."));
  t->push_back(Integer(QPM_FIELD(tr.shift_lowering_trials), AtLeast(0),
      "With the cholesky preconditioner and no bounds, a point whose shifted Newton step lies "
      "inside the ball tries up to this many shifts lower by tr.shift_lowering_factor each, "
      "keeping the first whose step reaches the ball or the last that factors; 0: never."));
  t->push_back(Number(QPM_FIELD(tr.shift_lowering_factor), Above(1.0),
      "Ratio of one lowered shift to the next (tr.shift_lowering_trials)."));
  t->push_back(Bool(QPM_FIELD(tr.gauss_newton_after_shift),
      "With the cholesky preconditioner and no bounds, an accepted trial after a point whose "
      "factorization needed a shift has W at the multipliers lambda alone (the Gauss-Newton "
      "model of the penalty term), not at lambda + beta c.",
      "always lambda + beta c", "lambda alone after a shifted point"));
  t->push_back(Number(QPM_FIELD(tr.cg_relative_tol), Open(0.0, 1.0),
      "CG stops at ||r|| <= min(this, sqrt ||g||) ||g||."));
  t->push_back(Integer(QPM_FIELD(tr.cg_max_iter), AtLeast(0),
      "CG iterations per step; 0 means n."));
  t->push_back(Number(QPM_FIELD(tr.rho_regularization), AtLeast(0.0),
      "rho = (actual + reg) / (predicted + reg), reg = this * max(1, |Q(x)|)."));
  t->push_back(Number(QPM_FIELD(tr.value_noise), AtLeast(0.0),
      "Predicted decreases below this * max(1, |Q|) are judged from gradients."));
  t->push_back(Number(QPM_FIELD(tr.min_radius), Above(0.0),
      "Below this radius the trust region has stalled."));
  t->push_back(Integer(QPM_FIELD(tr.stall_window), AtLeast(1),
      "TR stall window (as gd.stall_window)."));
  t->push_back(Integer(QPM_FIELD(tr.newton_stall_window), AtLeast(1),
      "TR stall window with the cholesky preconditioner (Newton steps)."));
  t->push_back(Number(QPM_FIELD(tr.newton_stall_gradient_drop), Open(0.0, 1.0),
      "With the cholesky preconditioner a new low of ||grad Q|| is progress only below this "
      "fraction of the last."));
  t->push_back(Number(QPM_FIELD(tr.resolution_steps), AtLeast(0.0),
      "Stalled when an interior CG step is within this many eps_mach |z_i| everywhere; 0: off."));
  t->push_back(Number(QPM_FIELD(tr.cauchy_decrease), Open(0.0, 0.5),
      "Bounded problems: mu_0 of TRON, the sufficient decrease m(p) <= this g.p of the "
      "Cauchy point and of each projected search."));
  t->push_back(Number(QPM_FIELD(tr.cauchy_interpolation), Open(0.0, 1.0),
      "Bounded problems: the Cauchy step t shrinks by this factor."));
  t->push_back(Number(QPM_FIELD(tr.cauchy_extrapolation), Above(1.0),
      "Bounded problems: the Cauchy step t grows by this factor."));
  t->push_back(Integer(QPM_FIELD(tr.max_cauchy_trials), AtLeast(1),
      "Bounded problems: trials of the Cauchy step t at most."));
  t->push_back(Number(QPM_FIELD(tr.search_backtrack), Open(0.0, 1.0),
      "Bounded problems: the projected search along a CG direction backtracks by this factor."));
  t->push_back(Integer(QPM_FIELD(tr.max_search_trials), AtLeast(1),
      "Bounded problems: trials of each projected search at most."));
  t->push_back(Integer(QPM_FIELD(tr.gradient_projection_after), AtLeast(0),
      "Bounded problems: projected-gradient steps (GPCG) after the Cauchy point, until three "
      "in a row free no entry, once the Cauchy points of this many accepted steps in a row freed "
      "bounds; 0: never."));
  t->push_back(Number(QPM_FIELD(tr.gradient_projection_trickle), ClosedOpen(0.0, 1.0),
      "Bounded problems: a projected-gradient step that frees fewer entries than this fraction "
      "of the most one step of its phase freed counts as freeing none."));
  t->push_back(Integer(QPM_FIELD(tr.release_rounds), AtLeast(0),
      "Bounded problems with the cholesky preconditioner: rounds in which the step frees every "
      "entry on a bound whose model gradient points into the box and solves its faces again; "
      "0: never."));
  t->push_back(Number(QPM_FIELD(tr.interior_switch_factorizations), AtLeast(0.0),
      "Bounded problems with a factorizing preconditioner: after a subproblem whose trust region "
      "took more than this many factorizations per accepted step (over at least 3), the later "
      "subproblems take the interior steps on the bounds; 0: never."));
  t->push_back(Integer(QPM_FIELD(tr.interior_switch_iterations), AtLeast(0),
      "Bounded problems with a factorizing preconditioner: once a subproblem's trust region has "
      "taken this many accepted steps, the interior steps on the bounds take over, for the rest "
      "of that subproblem and the later ones; 0: never."));
  t->push_back(Integer(QPM_FIELD(tr.interior_start_bounds), AtLeast(0),
      "Bounded problems with rows and a factorizing preconditioner, where at least this many "
      "entries of z (variables and slacks) have a finite bound: with a curved row (two Hessian "
      "evaluations at the start tell) the interior steps take the subproblems from the first; "
      "else the first subproblem that moves starts again on them if a factorization of its "
      "trust region needs a shift (Q nonconvex); 0: never."));
  t->push_back(Number(QPM_FIELD(tr.release_gain), Open(0.0, 1.0),
      "Bounded problems: those rounds stop once one lowers the model by less than this fraction "
      "of the step's decrease so far."));
}

void AddLbfgs(Table* t) {
  t->push_back(Integer(QPM_FIELD(lbfgs.memory), AtLeast(1),
      "Curvature pairs kept (from Ipopt's limited_memory_max_history)."));
  t->push_back(Number(QPM_FIELD(lbfgs.line_search.armijo_c1), Open(0.0, 0.5),
      "L-BFGS line search: as gd.line_search.armijo_c1."));
  t->push_back(Number(QPM_FIELD(lbfgs.line_search.backtrack_factor), Open(0.0, 1.0),
      "L-BFGS line search: as gd.line_search.backtrack_factor."));
  t->push_back(Number(QPM_FIELD(lbfgs.line_search.rounding_allowance), AtLeast(0.0),
      "L-BFGS line search: as gd.line_search.rounding_allowance."));
  t->push_back(Integer(QPM_FIELD(lbfgs.line_search.max_backtracks), AtLeast(1),
      "L-BFGS line search: as gd.line_search.max_backtracks."));
  t->push_back(Number(QPM_FIELD(lbfgs.curvature_eps), AtLeast(0.0),
      "Pairs with s.y <= this ||s|| ||y|| are skipped (keeps H SPD)."));
  t->push_back(Integer(QPM_FIELD(lbfgs.stall_window), AtLeast(1),
      "L-BFGS stall window (as gd.stall_window)."));
  t->push_back(Integer(QPM_FIELD(lbfgs.max_subspace_iterations), AtLeast(0),
      "Bounded problems (L-BFGS-B): iterations of the subspace minimization over the free entries."));
}

#undef QPM_FIELD

Table BuildTable() {
  const Options defaults;
  Table t;
  AddRegisteredChoices(defaults, &t);
  AddRegisteredNumbers(defaults, &t);
  AddOuterLoop(defaults, &t);
  AddPaperTolerances(&t);
  AddMultipliers(&t);
  AddGradientDescent(&t);
  AddTrustRegion(&t);
  AddLbfgs(&t);
  return t;
}

}  // namespace

const std::vector<OptionEntry>& OptionTable() {
  static const Table table = BuildTable();  // built once, thread-safe (C++11 statics)
  return table;
}

const OptionEntry* FindOption(const std::string& name) {
  for (const OptionEntry& e : OptionTable()) {
    if (e.name == name || e.field == name) return &e;
  }
  return nullptr;
}

}  // namespace qpm
