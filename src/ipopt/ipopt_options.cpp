#include "ipopt/ipopt_options.hpp"

#include <string>

namespace qpm {

using Ipopt::Index;

const std::vector<IpoptOptionUse>& IpoptOptionsRead() {
  // qpm tests the paper's 2-norms where Ipopt's tolerances are max-norms.
  static const std::vector<IpoptOptionUse> table = {
      {"tol", "default mode: Ipopt's tol on the scaled optimality error (max-norms); paper "
              "mode: eps0 and eps1 unless set separately below, tested in 2-norms"},
      {"compl_inf_tol", "default mode: Ipopt's compl_inf_tol (complementarity is zero by "
                        "construction)"},
      {"acceptable_iter", "default mode: outer iterations at the acceptable level that end the "
                          "solve Solved_To_Acceptable_Level"},
      {"acceptable_compl_inf_tol", "default mode: as Ipopt's"},
      {"nlp_scaling_method", "default mode: gradient-based (Ipopt's default) scales f and each "
                             "row at x_0; any other value: no scaling"},
      {"nlp_scaling_max_gradient", "default mode: the largest gradient entry after scaling"},
      {"nlp_scaling_min_value", "default mode: the smallest scaling factor"},
      {"warm_start_init_point", "yes: lambda from get_starting_point seeds the multiplier "
                                "estimates (Ipopt's sign); z_L, z_U are read, not used"},
      {"constr_viol_tol", "default mode: Ipopt's (unscaled max-norm violation); paper mode: eps0, "
                          "stop when ||c(x)||_2 <= eps0 (used only when the user sets it)"},
      {"dual_inf_tol", "default mode: Ipopt's (unscaled dual infeasibility); paper mode: eps1, "
                       "subproblems stop at ||grad Q||_2 <= tau(x), tau >= eps1 (used only when "
                       "the user sets it)"},
      {"acceptable_tol", "default mode: Ipopt's acceptable_tol; paper mode: "
                         "paper.acceptable_feasibility_tol and paper.acceptable_stationarity_tol "
                         "unless set separately: a stalled solve within them ends "
                         "Solved_To_Acceptable_Level"},
      {"acceptable_constr_viol_tol", "default mode: Ipopt's; paper mode: "
                                     "paper.acceptable_feasibility_tol (used only when set)"},
      {"acceptable_dual_inf_tol", "default mode: Ipopt's; paper mode: "
                                  "paper.acceptable_stationarity_tol (used only when set)"},
      {"max_iter", "when set, the limit on total inner iterations in place of qpm_max_inner_iter "
                   "(Ipopt's default is not applied)"},
      {"max_cpu_time", "max_cpu_time: process CPU seconds from the call of OptimizeTNLP "
                       "(Maximum_CpuTime_Exceeded)"},
      {"diverging_iterates_tol", "diverging_iterates_tol: ||x||_inf above it is a runaway; once "
                                 "the restarts are used up it ends the solve (Diverging_Iterates)"},
      {"hessian_approximation", "limited-memory selects the lbfgs inner solver whatever "
                                "qpm_inner_solver says"},
      {"limited_memory_max_history", "lbfgs.memory: curvature pairs kept by L-BFGS"},
      {"obj_scaling_factor", "QPM minimizes obj_scaling_factor * f (negative maximizes; 0 is "
                             "refused)"},
      {"nlp_lower_bound_inf", "variable and constraint lower bounds at or below it are -infinity"},
      {"nlp_upper_bound_inf", "variable and constraint upper bounds at or above it are +infinity"},
      {"print_level", "console log: banner, one line per outer iteration, final block; 0 prints "
                      "nothing"},
      {"output_file", "log file (opened by Initialize())"},
      {"file_print_level", "verbosity of output_file"},
      {"option_file_name", "option file read by Initialize()"},
      {"sb", "yes: no banner"},
      {"derivative_test", "Ipopt's finite-difference derivative checker before the solve"},
      {"derivative_test_tol", "derivative checker: relative error reported as a mismatch"},
      {"derivative_test_perturbation", "derivative checker: relative finite-difference step"},
      {"point_perturbation_radius", "derivative checker: random perturbation of the point"},
      {"derivative_test_print_all", "derivative checker: print every entry, not only mismatches"},
      {"derivative_test_first_index", "derivative checker: first variable index checked "
                                      "(-2: all)"},
  };
  return table;
}

std::string DefaultText(const Ipopt::RegisteredOption& option) {
  switch (option.Type()) {
    case Ipopt::OT_Number: return FormatNumber(option.DefaultNumber());
    case Ipopt::OT_Integer: return std::to_string(option.DefaultInteger());
    default: return option.DefaultString().empty() ? "\"\"" : option.DefaultString();
  }
}

namespace {

void RegisterNumber(const OptionEntry& e, Ipopt::RegisteredOptions* r) {
  const OptionRange& g = e.range;
  const double d = e.Default();
  if (g.has_lower && g.has_upper) {
    r->AddBoundedNumberOption(e.name, e.meaning, g.lower, g.lower_strict, g.upper, g.upper_strict,
                              d, e.details);
  } else if (g.has_lower) {
    r->AddLowerBoundedNumberOption(e.name, e.meaning, g.lower, g.lower_strict, d, e.details);
  } else if (g.has_upper) {
    r->AddUpperBoundedNumberOption(e.name, e.meaning, g.upper, g.upper_strict, d, e.details);
  } else {
    r->AddNumberOption(e.name, e.meaning, d, e.details);
  }
}

// Ipopt's integer bounds are inclusive: > k becomes >= k + 1.
void RegisterInteger(const OptionEntry& e, Ipopt::RegisteredOptions* r) {
  const OptionRange& g = e.range;
  const Index d = static_cast<Index>(e.Default());
  const Index lower = static_cast<Index>(g.lower) + (g.lower_strict ? 1 : 0);
  const Index upper = static_cast<Index>(g.upper) - (g.upper_strict ? 1 : 0);
  if (g.has_lower && g.has_upper) {
    r->AddBoundedIntegerOption(e.name, e.meaning, lower, upper, d, e.details);
  } else if (g.has_lower) {
    r->AddLowerBoundedIntegerOption(e.name, e.meaning, lower, d, e.details);
  } else if (g.has_upper) {
    r->AddUpperBoundedIntegerOption(e.name, e.meaning, upper, d, e.details);
  } else {
    r->AddIntegerOption(e.name, e.meaning, d, e.details);
  }
}

void RegisterChoices(const OptionEntry& e, Ipopt::RegisteredOptions* r) {
  std::vector<std::string> names, meanings;
  for (const OptionChoice& c : e.choices) {
    names.push_back(c.name);
    meanings.push_back(c.meaning);
  }
  r->AddStringOption(e.name, e.meaning, e.DefaultText(), names, meanings, e.details);
}

// Ipopt's Get*Value yields the registered default when the user set none;
// the field keeps its value only for an option missing from the registry.
void ReadEntry(const OptionEntry& e, const Ipopt::OptionsList& list, Options* o) {
  if (e.type == OptionType::kNumber) {
    double value = e.get(*o);
    list.GetNumericValue(e.name, value, "");
    e.set(o, value);
  } else if (e.type == OptionType::kInteger) {
    Index value = static_cast<Index>(e.get(*o));
    list.GetIntegerValue(e.name, value, "");
    e.set(o, value);
  } else {
    std::string value;
    list.GetStringValue(e.name, value, "");
    const int index = e.ChoiceIndex(value);
    if (index >= 0) e.set(o, index);
  }
}

}  // namespace

void RegisterTableOptions(Ipopt::RegisteredOptions* registry) {
  for (const OptionEntry& e : OptionTable()) {
    if (!e.registered) continue;
    switch (e.type) {
      case OptionType::kNumber: RegisterNumber(e, registry); break;
      case OptionType::kInteger: RegisterInteger(e, registry); break;
      case OptionType::kBool:
      case OptionType::kEnum: RegisterChoices(e, registry); break;
    }
  }
}

void ReadTableOptions(const Ipopt::OptionsList& list, Options* options) {
  for (const OptionEntry& e : OptionTable()) {
    if (e.registered) ReadEntry(e, list, options);
  }
}

}  // namespace qpm
