#include "qpm/ipopt/compare.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <vector>

#include <IpSolveStatistics.hpp>

#include "core/linalg/huge_pages.hpp"
#include "qpm/ipopt/application.hpp"

namespace qpm {

using namespace Ipopt;

namespace {

// Forwards every call to the user's TNLP, counting value calls and keeping
// what finalize_solution received.
class RecordingTnlp : public TNLP {
 public:
  RecordingTnlp(const SmartPtr<TNLP>& inner, SolverRun* run) : inner_(inner), run_(run) {}

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h,
                    IndexStyleEnum& style) override {
    return inner_->get_nlp_info(n, m, nnz_jac, nnz_h, style);
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l,
                       Number* g_u) override {
    return inner_->get_bounds_info(n, x_l, x_u, m, g_l, g_u);
  }
  bool get_scaling_parameters(Number& obj_scaling, bool& use_x, Index n, Number* x_scaling,
                              bool& use_g, Index m, Number* g_scaling) override {
    return inner_->get_scaling_parameters(obj_scaling, use_x, n, x_scaling, use_g, m, g_scaling);
  }
  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_L,
                          Number* z_U, Index m, bool init_lambda, Number* lambda) override {
    return inner_->get_starting_point(n, init_x, x, init_z, z_L, z_U, m, init_lambda, lambda);
  }
  bool eval_f(Index n, const Number* x, bool new_x, Number& f) override {
    ++run_->counts.eval_f;
    return inner_->eval_f(n, x, new_x, f);
  }
  bool eval_grad_f(Index n, const Number* x, bool new_x, Number* grad) override {
    ++run_->counts.eval_grad_f;
    return inner_->eval_grad_f(n, x, new_x, grad);
  }
  bool eval_g(Index n, const Number* x, bool new_x, Index m, Number* g) override {
    ++run_->counts.eval_g;
    return inner_->eval_g(n, x, new_x, m, g);
  }
  bool eval_jac_g(Index n, const Number* x, bool new_x, Index m, Index nnz, Index* row,
                  Index* col, Number* values) override {
    if (values) ++run_->counts.eval_jac_g;
    return inner_->eval_jac_g(n, x, new_x, m, nnz, row, col, values);
  }
  bool eval_h(Index n, const Number* x, bool new_x, Number sigma, Index m, const Number* lambda,
              bool new_lambda, Index nnz, Index* row, Index* col, Number* values) override {
    if (values) ++run_->counts.eval_h;
    return inner_->eval_h(n, x, new_x, sigma, m, lambda, new_lambda, nnz, row, col, values);
  }
  Index get_number_of_nonlinear_variables() override {
    return inner_->get_number_of_nonlinear_variables();
  }
  bool get_list_of_nonlinear_variables(Index num, Index* pos) override {
    return inner_->get_list_of_nonlinear_variables(num, pos);
  }
  bool intermediate_callback(AlgorithmMode mode, Index iter, Number obj, Number inf_pr,
                             Number inf_du, Number mu, Number d_norm, Number reg,
                             Number alpha_du, Number alpha_pr, Index ls_trials,
                             const IpoptData* ip_data, IpoptCalculatedQuantities* ip_cq) override {
    return inner_->intermediate_callback(mode, iter, obj, inf_pr, inf_du, mu, d_norm, reg,
                                         alpha_du, alpha_pr, ls_trials, ip_data, ip_cq);
  }
  void finalize_solution(SolverReturn status, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number* g, const Number* lambda,
                         Number obj_value, const IpoptData* ip_data,
                         IpoptCalculatedQuantities* ip_cq) override {
    run_->finalized = true;
    run_->f = obj_value;
    CopyLarge(Eigen::Map<const Vector>(x, n), &run_->x);
    CopyLarge(Eigen::Map<const Vector>(z_L, n), &run_->z_L);
    CopyLarge(Eigen::Map<const Vector>(z_U, n), &run_->z_U);
    CopyLarge(Eigen::Map<const Vector>(g, m), &run_->g);
    CopyLarge(Eigen::Map<const Vector>(lambda, m), &run_->lambda);
    inner_->finalize_solution(status, n, x, z_L, z_U, m, g, lambda, obj_value, ip_data, ip_cq);
  }

 private:
  SmartPtr<TNLP> inner_;
  SolverRun* run_;
};

// Distance of each x_i and g_j to its interval, as one vector.
Vector Violations(TNLP& tnlp, const Vector& x, const Vector& g) {
  Index n, m, nnz_jac, nnz_h;
  TNLP::IndexStyleEnum style;
  tnlp.get_nlp_info(n, m, nnz_jac, nnz_h, style);
  Vector x_l(n), x_u(n), g_l(m), g_u(m);
  tnlp.get_bounds_info(n, x_l.data(), x_u.data(), m, g_l.data(), g_u.data());
  Vector v(n + m);
  for (Index i = 0; i < n; ++i) v[i] = std::max({0.0, x_l[i] - x[i], x[i] - x_u[i]});
  for (Index j = 0; j < m; ++j) v[n + j] = std::max({0.0, g_l[j] - g[j], g[j] - g_u[j]});
  return v;
}

// f and g evaluated at the returned x, in place of the values the solver
// handed to finalize_solution, which need not be x's: Ipopt 3.11 hands 0
// for both when it stops on max_cpu_time, which would read as a feasible
// point with f = 0. The solver's own values stay where the model cannot
// evaluate x. Not counted in run->counts (the model, not the recorder).
void EvaluateAtReturnedPoint(TNLP& tnlp, SolverRun* run) {
  const Index n = static_cast<Index>(run->x.size()), m = static_cast<Index>(run->g.size());
  Number f = 0.0;
  if (tnlp.eval_f(n, run->x.data(), true, f) && std::isfinite(f)) run->f = f;
  Vector g(m);
  if (m > 0 && tnlp.eval_g(n, run->x.data(), false, m, g.data()) && g.allFinite()) run->g = g;
}

}  // namespace

// The setter the text looks like first, and a number only where the whole
// text is one: "1e3" is not the integer 1. The setters are tried on a copy,
// which shares the registry but has no journalist (Ipopt's copy does not
// take it), so a refusal there prints nothing; the one that accepts is then
// called on `options`. When none accepts, the setter of the text's look is
// called on `options` to print Ipopt's complaint, once.
bool SetOptionFromText(OptionsList& options, const std::string& name, const std::string& value) {
  char* end = nullptr;
  const long integer = std::strtol(value.c_str(), &end, 10);
  const bool is_integer = !value.empty() && *end == '\0' && integer == static_cast<Index>(integer);
  const double number = std::strtod(value.c_str(), &end);
  const bool is_number = !value.empty() && *end == '\0';
  const Index as_index = static_cast<Index>(integer);
  auto as_integer = [&](OptionsList& o) { return o.SetIntegerValue(name, as_index); };
  auto as_number = [&](OptionsList& o) { return o.SetNumericValue(name, number); };
  auto as_string = [&](OptionsList& o) { return o.SetStringValue(name, value); };
  OptionsList quiet(options);
  if (is_integer && as_integer(quiet)) return as_integer(options);
  if (is_number && as_number(quiet)) return as_number(options);
  if (as_string(quiet)) return as_string(options);
  if (is_number) as_number(options);
  else as_string(options);
  return false;
}

double KktResidual(TNLP& tnlp, const Vector& x, const Vector& lambda, const Vector& z_L,
                   const Vector& z_U) {
  Index n, m, nnz_jac, nnz_h;
  TNLP::IndexStyleEnum style;
  tnlp.get_nlp_info(n, m, nnz_jac, nnz_h, style);
  Vector r(n);
  if (!tnlp.eval_grad_f(n, x.data(), true, r.data())) return std::nan("");
  std::vector<Index> row(nnz_jac), col(nnz_jac);
  std::vector<Number> values(nnz_jac);
  tnlp.eval_jac_g(n, nullptr, false, m, nnz_jac, row.data(), col.data(), nullptr);
  if (!tnlp.eval_jac_g(n, x.data(), false, m, nnz_jac, nullptr, nullptr, values.data())) {
    return std::nan("");
  }
  const Index offset = style == TNLP::FORTRAN_STYLE ? 1 : 0;
  for (Index k = 0; k < nnz_jac; ++k) r[col[k] - offset] += values[k] * lambda[row[k] - offset];
  r += z_U - z_L;
  return r.norm();
}

SolverRun RunSolver(const SmartPtr<IpoptApplication>& app, const SmartPtr<TNLP>& tnlp,
                    const std::string& name, const OptionSetter& set_options) {
  SolverRun run;
  run.solver = name;
  if (set_options) set_options(*app->Options());
  app->Initialize("");
  SmartPtr<TNLP> recorder = new RecordingTnlp(tnlp, &run);
  const auto start = std::chrono::steady_clock::now();
  run.status = app->OptimizeTNLP(recorder);
  run.wall_time =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Statistics() is null when Ipopt stopped before its algorithm ran (an
  // invalid option or problem definition).
  if (Ipopt::IsValid(app->Statistics())) {
    Ipopt::SmartPtr<Ipopt::SolveStatistics> stats = app->Statistics();
    run.iterations = stats->IterationCount();
    Ipopt::Number dual_inf, constr_viol, compl_inf, error;
    stats->Infeasibilities(dual_inf, constr_viol, compl_inf, error);
    run.reported_dual_inf = dual_inf, run.reported_constr_viol = constr_viol;
    stats->ScaledInfeasibilities(dual_inf, constr_viol, compl_inf, error);
    run.reported_error = error;
  }
  if (run.finalized) {
    EvaluateAtReturnedPoint(*tnlp, &run);
    const Vector v = Violations(*tnlp, run.x, run.g);
    run.violation_norm = v.norm();
    run.violation_max = v.size() ? v.lpNorm<Eigen::Infinity>() : 0.0;
    run.kkt_residual = KktResidual(*tnlp, run.x, run.lambda, run.z_L, run.z_U);
  }
  return run;
}

Comparison CompareWithIpopt(const SmartPtr<TNLP>& tnlp, const OptionSetter& common,
                            const OptionSetter& ipopt_only, const OptionSetter& qpm_only) {
  auto with = [&common](const OptionSetter& extra) {
    return [&common, extra](OptionsList& list) {
      if (common) common(list);
      if (extra) extra(list);
    };
  };
  Comparison result;
  SmartPtr<IpoptApplication> ipopt = IpoptApplicationFactory();
  result.ipopt = RunSolver(ipopt, tnlp, "Ipopt", with(ipopt_only));
  SmartPtr<IpoptApplication> qpm_app = new QpmApplication();
  result.qpm = RunSolver(qpm_app, tnlp, "QPM", with(qpm_only));
  return result;
}

const char* StatusName(ApplicationReturnStatus status) {
  switch (status) {
    case Solve_Succeeded: return "Solve_Succeeded";
    case Solved_To_Acceptable_Level: return "Solved_To_Acceptable_Level";
    case Infeasible_Problem_Detected: return "Infeasible_Problem_Detected";
    case Search_Direction_Becomes_Too_Small: return "Search_Direction_Becomes_Too_Small";
    case Diverging_Iterates: return "Diverging_Iterates";
    case User_Requested_Stop: return "User_Requested_Stop";
    case Feasible_Point_Found: return "Feasible_Point_Found";
    case Maximum_Iterations_Exceeded: return "Maximum_Iterations_Exceeded";
    case Restoration_Failed: return "Restoration_Failed";
    case Error_In_Step_Computation: return "Error_In_Step_Computation";
    case Maximum_CpuTime_Exceeded: return "Maximum_CpuTime_Exceeded";
    case Not_Enough_Degrees_Of_Freedom: return "Not_Enough_Degrees_Of_Freedom";
    case Invalid_Problem_Definition: return "Invalid_Problem_Definition";
    case Invalid_Option: return "Invalid_Option";
    case Invalid_Number_Detected: return "Invalid_Number_Detected";
    case Unrecoverable_Exception: return "Unrecoverable_Exception";
    case NonIpopt_Exception_Thrown: return "NonIpopt_Exception_Thrown";
    case Insufficient_Memory: return "Insufficient_Memory";
    case Internal_Error: return "Internal_Error";
  }
  return "Unknown_Status";
}

std::string Comparison::Table() const {
  std::string out;
  char line[256];
  auto row = [&](const char* label, const std::string& a, const std::string& b) {
    std::snprintf(line, sizeof line, "%-26s %-34s %-34s\n", label, a.c_str(), b.c_str());
    out += line;
  };
  auto num = [&](const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return std::string(buf);
  };
  auto cnt = [&](long v) { return std::to_string(v); };
  row("", ipopt.solver, qpm.solver);
  row("status", StatusName(ipopt.status), StatusName(qpm.status));
  row("f", num("%.10g", ipopt.f), num("%.10g", qpm.f));
  row("violation ||.||_2", num("%.3e", ipopt.violation_norm), num("%.3e", qpm.violation_norm));
  row("violation ||.||_inf", num("%.3e", ipopt.violation_max), num("%.3e", qpm.violation_max));
  row("KKT residual ||.||_2", num("%.3e", ipopt.kkt_residual), num("%.3e", qpm.kkt_residual));
  row("own optimality error", num("%.3e", ipopt.reported_error), num("%.3e", qpm.reported_error));
  row("own dual infeasibility", num("%.3e", ipopt.reported_dual_inf), num("%.3e", qpm.reported_dual_inf));
  row("own constraint violation", num("%.3e", ipopt.reported_constr_viol),
      num("%.3e", qpm.reported_constr_viol));
  row("iterations", cnt(ipopt.iterations), cnt(qpm.iterations));
  row("eval_f", cnt(ipopt.counts.eval_f), cnt(qpm.counts.eval_f));
  row("eval_g", cnt(ipopt.counts.eval_g), cnt(qpm.counts.eval_g));
  row("eval_grad_f", cnt(ipopt.counts.eval_grad_f), cnt(qpm.counts.eval_grad_f));
  row("eval_jac_g", cnt(ipopt.counts.eval_jac_g), cnt(qpm.counts.eval_jac_g));
  row("eval_h", cnt(ipopt.counts.eval_h), cnt(qpm.counts.eval_h));
  row("wall time [s]", num("%.3f", ipopt.wall_time), num("%.3f", qpm.wall_time));
  return out;
}

}  // namespace qpm
