#include "qpm/ipopt/application.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <new>

#include <IpJournalist.hpp>
#include <IpOptionsList.hpp>
#include <IpRegOptions.hpp>

#include "core/inner/inner_solver.hpp"
#include "qpm/core/option_table.hpp"
#include "ipopt/ipopt_options.hpp"
#include "solve_log.hpp"
#include "statistics_shim.hpp"

namespace qpm {

using namespace Ipopt;

namespace {

constexpr const char* kVersion = "0.1.0";

// Option value: the user's `name` when set, else `fallback`.
double NumericOr(const OptionsList& list, const char* name, double fallback) {
  double value = 0.0;
  return list.GetNumericValue(name, value, "") ? value : fallback;
}

// The paper's mode: Ipopt's tolerances (max-norms there) become eps0 and
// eps1 (2-norms in qpm); each specific one is used only when the user set it.
void ReadIpoptTolerances(const OptionsList& list, qpm::Options* o) {
  PaperTolerances& p = o->paper;
  double tol = 0.0;
  list.GetNumericValue("tol", tol, "");
  p.feasibility_tol = NumericOr(list, "constr_viol_tol", tol);
  p.stationarity_tol = NumericOr(list, "dual_inf_tol", tol);
  double acceptable = 1e-6;
  list.GetNumericValue("acceptable_tol", acceptable, "");
  p.acceptable_feasibility_tol = NumericOr(list, "acceptable_constr_viol_tol", acceptable);
  p.acceptable_stationarity_tol = NumericOr(list, "acceptable_dual_inf_tol", acceptable);
}

// The default mode's test is Ipopt's own (TerminationOptions), read as
// Ipopt reads it: the registered defaults when the user set none.
void ReadIpoptTermination(const OptionsList& list, qpm::Options* o) {
  TerminationOptions& t = o->termination;
  list.GetNumericValue("tol", t.tol, "");
  list.GetNumericValue("dual_inf_tol", t.dual_inf_tol, "");
  list.GetNumericValue("constr_viol_tol", t.constr_viol_tol, "");
  list.GetNumericValue("compl_inf_tol", t.compl_inf_tol, "");
  list.GetNumericValue("acceptable_tol", t.acceptable_tol, "");
  list.GetNumericValue("acceptable_dual_inf_tol", t.acceptable_dual_inf_tol, "");
  list.GetNumericValue("acceptable_constr_viol_tol", t.acceptable_constr_viol_tol, "");
  list.GetNumericValue("acceptable_compl_inf_tol", t.acceptable_compl_inf_tol, "");
  Index iterations = t.acceptable_iter;
  list.GetIntegerValue("acceptable_iter", iterations, "");
  t.acceptable_iter = iterations;
  std::string scaling;  // Ipopt's other methods (user-scaling, equilibration-based) act as none
  list.GetStringValue("nlp_scaling_method", scaling, "");
  o->scaling.gradient_based = scaling == "gradient-based";
  list.GetNumericValue("nlp_scaling_max_gradient", o->scaling.max_gradient, "");
  list.GetNumericValue("nlp_scaling_min_value", o->scaling.min_value, "");
}

// max_iter, when the user sets it, replaces qpm_max_inner_iter: Ipopt's
// default of 3000 is far too few for gradient descent.
void ReadIpoptLimits(const OptionsList& list, qpm::Options* o) {
  list.GetNumericValue("diverging_iterates_tol", o->diverging_iterates_tol, "");
  list.GetNumericValue("max_cpu_time", o->max_cpu_time, "");
  Index max_iter = 0;
  if (list.GetIntegerValue("max_iter", max_iter, "")) o->max_inner_iter = max_iter;
}

// hessian_approximation limited-memory means no eval_h: L-BFGS whatever
// qpm_inner_solver says.
void ReadIpoptInnerSolver(const OptionsList& list, qpm::Options* o) {
  std::string hessian;
  list.GetStringValue("hessian_approximation", hessian, "");
  if (hessian == "limited-memory") o->inner_solver = InnerSolverType::kLbfgs;
  Index memory = o->lbfgs.memory;
  list.GetIntegerValue("limited_memory_max_history", memory, "");
  o->lbfgs.memory = memory;
}

// Hands the result to the model in Ipopt's conventions: unscaled objective,
// g(x), lambda = beta c / obj_scaling and z = z / obj_scaling (so that
// grad f + J^T lambda - z_L + z_U = P-stationarity residual / obj_scaling),
// ip_data = ip_cq = NULL.
void Finalize(TNLP* tnlp, const TnlpProblem& problem, const Summary& s, bool aborted) {
  const double scaling = problem.obj_scaling();
  const bool have_values = s.termination != TerminationType::kInvalidNumberAtStart &&
                           s.termination != TerminationType::kInvalidOptions;
  // v / obj_scaling, without a copy when that is v (n-vectors at scale).
  auto unscaled = [scaling](const Vector& v, Vector* buffer) {
    if (scaling == 1.0) return v.data();
    *buffer = v / scaling;
    return static_cast<const double*>(buffer->data());
  };
  Vector lambda, z_l, z_u;
  const double obj = have_values ? s.f / scaling : std::nan("");
  const SolverReturn code = aborted ? INTERNAL_ERROR : ToSolverReturn(s.termination);
  tnlp->finalize_solution(code, problem.num_variables(), s.x.data(), unscaled(s.z_l, &z_l),
                          unscaled(s.z_u, &z_u), problem.num_constraints(), s.g.data(),
                          unscaled(s.lambda, &lambda), obj, nullptr, nullptr);
}

SolveFigures MakeFigures(const Summary& s, const CallbackCounts& counts, double scaling,
                         double wall_time) {
  SolveFigures f;
  f.iterations = static_cast<int>(s.inner_iterations);
  f.cpu_time = s.cpu_time;
  f.wall_time = wall_time;
  f.obj_evals = counts.eval_f, f.constr_evals = counts.eval_g;
  f.obj_grad_evals = counts.eval_grad_f, f.constr_jac_evals = counts.eval_jac_g;
  f.hess_evals = counts.eval_h;
  f.objective = s.f / scaling;
  f.scaled_objective = s.f;
  f.dual_inf = s.grad_q_max / std::abs(scaling);
  f.scaled_dual_inf = s.grad_q_max;
  f.constr_viol = s.c_max;
  return f;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The time limits count from the start of OptimizeTNLP, as Ipopt's do; the
// core's clocks start later, after the setup (options, the TNLP's sizes and
// sparsity patterns, the derivative test), so the setup's time is taken off
// the limits here: else a solve would overrun them by that much
// (docs/robustness.md, "Limits"). A limit the setup already
// used up becomes the smallest positive one: stop at the first check.
void ChargeSetup(double cpu_start, std::chrono::steady_clock::time_point wall_start,
                 qpm::Options* o) {
  constexpr double kSpent = std::numeric_limits<double>::min();
  o->max_cpu_time = std::max(o->max_cpu_time - (CpuSeconds() - cpu_start), kSpent);
  if (o->max_wall_time > 0.0) {
    o->max_wall_time = std::max(o->max_wall_time - SecondsSince(wall_start), kSpent);
  }
}

}  // namespace

ApplicationReturnStatus ToApplicationStatus(TerminationType type) {
  switch (type) {
    case TerminationType::kConverged: return Solve_Succeeded;
    case TerminationType::kAcceptable: return Solved_To_Acceptable_Level;
    case TerminationType::kMaxOuterIterations: return Maximum_Iterations_Exceeded;
    case TerminationType::kInfeasible: return Infeasible_Problem_Detected;
    case TerminationType::kMaxInnerIterations: return Maximum_Iterations_Exceeded;
    case TerminationType::kMaxCpuTime: return Maximum_CpuTime_Exceeded;
    // Ipopt 3.11 has no Maximum_WallTime_Exceeded (3.14 does): the CPU code.
    case TerminationType::kMaxWallTime: return Maximum_CpuTime_Exceeded;
    case TerminationType::kStalled: return Search_Direction_Becomes_Too_Small;
    case TerminationType::kUserStop: return User_Requested_Stop;
    case TerminationType::kEvaluationError: return Invalid_Number_Detected;
    case TerminationType::kDiverging: return Diverging_Iterates;
    case TerminationType::kInvalidNumberAtStart: return Invalid_Number_Detected;
    case TerminationType::kInvalidOptions: return Invalid_Option;
  }
  return Internal_Error;
}

SolverReturn ToSolverReturn(TerminationType type) {
  switch (type) {
    case TerminationType::kConverged: return SUCCESS;
    case TerminationType::kAcceptable: return STOP_AT_ACCEPTABLE_POINT;
    case TerminationType::kMaxOuterIterations: return MAXITER_EXCEEDED;
    case TerminationType::kInfeasible: return LOCAL_INFEASIBILITY;
    case TerminationType::kMaxInnerIterations: return MAXITER_EXCEEDED;
    case TerminationType::kMaxCpuTime: return CPUTIME_EXCEEDED;
    case TerminationType::kMaxWallTime: return CPUTIME_EXCEEDED;
    case TerminationType::kStalled: return STOP_AT_TINY_STEP;
    case TerminationType::kUserStop: return USER_REQUESTED_STOP;
    case TerminationType::kEvaluationError: return INVALID_NUMBER_DETECTED;
    case TerminationType::kDiverging: return DIVERGING_ITERATES;
    case TerminationType::kInvalidNumberAtStart: return INVALID_NUMBER_DETECTED;
    case TerminationType::kInvalidOptions: return INVALID_OPTION;
  }
  return INTERNAL_ERROR;
}

const char* ExitMessage(ApplicationReturnStatus status) {
  switch (status) {
    case Solve_Succeeded: return "Optimal Solution Found.";
    case Solved_To_Acceptable_Level: return "Solved To Acceptable Level.";
    case Maximum_Iterations_Exceeded: return "Maximum Number of Iterations Exceeded.";
    case Maximum_CpuTime_Exceeded: return "Maximum CPU time exceeded.";
    case Search_Direction_Becomes_Too_Small: return "Search Direction is becoming Too Small.";
    case User_Requested_Stop: return "Stopping optimization at current point as requested by user.";
    case Invalid_Number_Detected: return "Invalid number in NLP function or derivative detected.";
    case Infeasible_Problem_Detected: return "Converged to a point of local infeasibility. Problem may be infeasible.";
    case Diverging_Iterates: return "Iterates diverging; problem might be unbounded.";
    case Invalid_Problem_Definition: return "Problem has invalid or unsupported definition.";
    case Invalid_Option: return "Invalid option encountered.";
    case NonIpopt_Exception_Thrown: return "Unknown Exception caught in QPM.";
    case Insufficient_Memory: return "Not enough memory.";
    case Unrecoverable_Exception: return "Some uncaught Ipopt exception encountered.";
    default: return "Some uncaught QPM exception encountered.";
  }
}

void QpmApplication::RegisterQpmOptions(const SmartPtr<RegisteredOptions>& roptions) {
  if (IsValid(roptions->GetOption(OptionTable().front().name))) return;
  roptions->SetRegisteringCategory("QPM (Quadratic Penalty Method)");
  RegisterTableOptions(GetRawPtr(roptions));
}

QpmApplication::QpmApplication(bool create_console_out)
    : IpoptApplication(create_console_out) {
  RegisterQpmOptions(RegOptions());
}

QpmApplication::QpmApplication(SmartPtr<RegisteredOptions> reg_options,
                               SmartPtr<OptionsList> options, SmartPtr<Journalist> jnlst)
    : IpoptApplication(reg_options, options, jnlst) {
  RegisterQpmOptions(RegOptions());
}

SmartPtr<IpoptApplication> QpmApplication::clone() {
  SmartPtr<OptionsList> options = new OptionsList(*Options());
  return new QpmApplication(RegOptions(), options, Jnlst());
}

ApplicationReturnStatus QpmApplication::Refuse(const char* what) {
  Jnlst()->Printf(J_ERROR, J_MAIN,
                  "QpmApplication::%s: QPM solves TNLPs only; use OptimizeTNLP.\n", what);
  statistics_ = MakeStatistics(SolveFigures());
  return Invalid_Problem_Definition;
}

ApplicationReturnStatus QpmApplication::OptimizeNLP(const SmartPtr<NLP>&) {
  return Refuse("OptimizeNLP");
}
ApplicationReturnStatus QpmApplication::OptimizeNLP(const SmartPtr<NLP>&,
                                                    SmartPtr<AlgorithmBuilder>&) {
  return Refuse("OptimizeNLP");
}
ApplicationReturnStatus QpmApplication::ReOptimizeNLP(const SmartPtr<NLP>&) {
  return Refuse("ReOptimizeNLP");
}

SmartPtr<SolveStatistics> QpmApplication::Statistics() {
  if (!IsValid(statistics_)) statistics_ = MakeStatistics(SolveFigures());
  return statistics_;
}

bool QpmApplication::ReadOptions(qpm::Options* o, TnlpOptions* t, std::string* error) const {
  const OptionsList& list = *Options();
  ReadTableOptions(list, o);  // the qpm_* options
  ReadIpoptTolerances(list, o);
  ReadIpoptTermination(list, o);
  ReadIpoptLimits(list, o);
  std::string warm;
  list.GetStringValue("warm_start_init_point", warm, "");
  t->warm_start = warm == "yes";
  ReadIpoptInnerSolver(list, o);
  // Adjustments rather than errors: the adaptive alpha starts at
  // qpm_penalty_growth, and a small qpm_tr_max_radius caps the first radius.
  o->penalty_growth_max = std::max(o->penalty_growth_max, o->penalty_growth);
  o->tr.initial_radius = std::min(o->tr.initial_radius, o->tr.max_radius);
  list.GetNumericValue("nlp_lower_bound_inf", t->lower_bound_inf, "");
  list.GetNumericValue("nlp_upper_bound_inf", t->upper_bound_inf, "");
  list.GetNumericValue("obj_scaling_factor", t->obj_scaling, "");
  if (t->obj_scaling == 0.0) {
    *error = "obj_scaling_factor must not be 0";
    return false;
  }
  t->need_hessian = o->inner_solver == InnerSolverType::kTrustRegion ||
                    o->inner_solver == InnerSolverType::kInterior;
  return o->IsValid(error);
}

DerivativeTestOptions QpmApplication::ReadDerivativeTestOptions() const {
  const OptionsList& list = *Options();
  DerivativeTestOptions d;
  std::string level, print_all;
  list.GetStringValue("derivative_test", level, "");
  d.level = level == "first-order"         ? DerivativeTestOptions::Level::kFirstOrder
            : level == "second-order"      ? DerivativeTestOptions::Level::kSecondOrder
            : level == "only-second-order" ? DerivativeTestOptions::Level::kOnlySecondOrder
                                           : DerivativeTestOptions::Level::kNone;
  list.GetNumericValue("derivative_test_tol", d.tol, "");
  list.GetNumericValue("derivative_test_perturbation", d.perturbation, "");
  list.GetNumericValue("point_perturbation_radius", d.point_perturbation_radius, "");
  list.GetStringValue("derivative_test_print_all", print_all, "");
  d.print_all = print_all == "yes";
  Index first = -2;
  list.GetIntegerValue("derivative_test_first_index", first, "");
  d.first_index = first;
  return d;
}

// Ipopt's derivative checker, before the solve. A callback failing inside
// it ends the check (reported) but not the solve, whose own handling of
// evaluation errors then applies; Ipopt aborts with an exception instead.
void QpmApplication::RunDerivativeTest(TNLP& tnlp) {
  const DerivativeTestOptions d = ReadDerivativeTestOptions();
  if (d.level == DerivativeTestOptions::Level::kNone) return;
  const DerivativeTestResult r = CheckDerivatives(tnlp, d);
  for (const std::string& line : r.lines) {
    const bool mismatch = !line.empty() && line[0] == '*';
    Jnlst()->Printf(mismatch ? J_WARNING : J_SUMMARY, J_NLP, "%s\n", line.c_str());
    if (line.rfind("Starting", 0) == 0) Jnlst()->Printf(J_SUMMARY, J_NLP, "\n");
  }
  if (!r.evaluated) Jnlst()->Printf(J_WARNING, J_NLP, "%s; the check stopped there.\n", r.failure.c_str());
  Jnlst()->Printf(J_SUMMARY, J_NLP, "\n");
}

void QpmApplication::ApplyPrintLevel() {
  Index level = 5;
  Options()->GetIntegerValue("print_level", level, "");
  SmartPtr<Journal> console = Jnlst()->GetJournal("console");
  if (IsValid(console)) console->SetAllPrintLevels(static_cast<EJournalLevel>(level));
}

ApplicationReturnStatus QpmApplication::OptimizeTNLP(const SmartPtr<TNLP>& tnlp) {
  try {
    return Solve(tnlp);
  } catch (const IpoptException& e) {
    Jnlst()->Printf(J_ERROR, J_MAIN, "Exception from the model: %s\n", e.Message().c_str());
    return Unrecoverable_Exception;
  } catch (const std::bad_alloc&) {
    Jnlst()->Printf(J_ERROR, J_MAIN, "\nEXIT: %s\n", ExitMessage(Insufficient_Memory));
    return Insufficient_Memory;
  } catch (const std::exception& e) {
    Jnlst()->Printf(J_ERROR, J_MAIN, "Exception from the model: %s\n", e.what());
    return NonIpopt_Exception_Thrown;
  } catch (...) {
    Jnlst()->Printf(J_ERROR, J_MAIN, "Unknown exception from the model.\n");
    return NonIpopt_Exception_Thrown;
  }
}

ApplicationReturnStatus QpmApplication::Solve(const SmartPtr<TNLP>& tnlp) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = CpuSeconds();
  ApplyPrintLevel();
  summary_ = Summary();
  callback_counts_ = CallbackCounts();
  statistics_ = MakeStatistics(SolveFigures());
  std::string skip_banner;
  Options()->GetStringValue("sb", skip_banner, "");
  if (skip_banner != "yes") PrintBanner(*Jnlst(), kVersion);

  qpm::Options options;
  TnlpOptions tnlp_options;
  std::string error;
  if (!ReadOptions(&options, &tnlp_options, &error)) {
    Jnlst()->Printf(J_ERROR, J_MAIN, "Invalid option: %s\n\nEXIT: %s\n", error.c_str(),
                    ExitMessage(Invalid_Option));
    return Invalid_Option;
  }
  std::unique_ptr<TnlpProblem> problem = TnlpProblem::Create(tnlp, tnlp_options, &error);
  if (!problem) {
    Jnlst()->Printf(J_ERROR, J_MAIN, "Invalid problem definition: %s\n\nEXIT: %s\n",
                    error.c_str(), ExitMessage(Invalid_Problem_Definition));
    return Invalid_Problem_Definition;
  }
  RunDerivativeTest(*tnlp);
  if (Jnlst()->ProduceOutput(J_SUMMARY, J_MAIN)) PrintHeader(*Jnlst(), *problem, options);

  const double scaling = tnlp_options.obj_scaling;
  Callbacks callbacks;
  callbacks.on_iteration = [&](const IterationInfo& i) {
    return tnlp->intermediate_callback(RegularMode, static_cast<Index>(i.iter), i.f / scaling,
                                       i.c_max, i.grad_q_max, 1.0 / i.beta, i.step.step_norm,
                                       0.0, 0.0, i.step.step_size, i.step.backtracks, nullptr,
                                       nullptr);
  };
  callbacks.on_outer_iteration = [&](const OuterRecord& r) {
    PrintOuterLine(*Jnlst(), r, scaling);
  };
  ChargeSetup(cpu_start, wall_start, &options);
  summary_ = qpm::Solve(problem.get(), problem->starting_point(), options, callbacks,
                        problem->starting_multipliers());
  if (summary_.start_projected > 0) {
    Jnlst()->Printf(J_WARNING, J_MAIN, "The starting point had %d entries outside the variable "
                    "bounds; they were projected onto the bounds.\n", summary_.start_projected);
  }
  callback_counts_ = problem->counts();
  ApplicationReturnStatus status = ToApplicationStatus(summary_.termination);
  if (problem->aborted()) {  // a callback threw: report it as Ipopt does
    const CallbackFailure& failure = problem->failure();
    status = failure.kind == CallbackFailure::kIpoptException ? Unrecoverable_Exception
                                                               : NonIpopt_Exception_Thrown;
    summary_.message = "exception in " + failure.message;
    Jnlst()->Printf(J_ERROR, J_MAIN, "Exception thrown in %s\n", failure.message.c_str());
  }
  if (summary_.termination == TerminationType::kInvalidNumberAtStart) {
    Jnlst()->Printf(J_ERROR, J_MAIN, "The model returned an error or a non-finite value at "
                                     "the starting point.\n");
  }
  // As Ipopt, no finalize_solution when the options refused to start.
  if (summary_.termination != TerminationType::kInvalidOptions) {
    Finalize(GetRawPtr(tnlp), *problem, summary_, problem->aborted());
  }
  const double wall_time = SecondsSince(wall_start);
  statistics_ = MakeStatistics(MakeFigures(summary_, callback_counts_, scaling, wall_time));
  PrintFooter(*Jnlst(), summary_, callback_counts_, scaling, wall_time, status);
  return status;
}

ApplicationReturnStatus QpmApplication::ReOptimizeTNLP(const SmartPtr<TNLP>& tnlp) {
  return OptimizeTNLP(tnlp);
}

}  // namespace qpm
