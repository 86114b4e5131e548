// Side-by-side: solve one TNLP with Ipopt and with QPM, and judge both
// answers the same way from what finalize_solution returned.
#ifndef QPM_IPOPT_COMPARE_HPP_
#define QPM_IPOPT_COMPARE_HPP_

#include <functional>
#include <string>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

#include "qpm/core/problem.hpp"
#include "qpm/ipopt/tnlp_problem.hpp"

namespace qpm {

// What one solver returned, measured independently of the solver.
struct SolverRun {
  std::string solver;
  Ipopt::ApplicationReturnStatus status = Ipopt::Internal_Error;
  bool finalized = false;  // finalize_solution was called
  double f = 0.0;          // f(x) at the returned x (else the solver's obj_value)
  Vector x, z_L, z_U, g, lambda;  // as returned; g evaluated at x, as f
  double violation_norm = 0.0;  // 2-norm of the bound/row violations of (x, g)
  double violation_max = 0.0;   // max-norm of the same
  double kkt_residual = 0.0;    // ||grad f + J^T lambda - z_L + z_U||_2 at x
  // What the solver itself reports (Statistics()): Ipopt's optimality error
  // E (scaled), unscaled dual infeasibility and constraint violation; 0 when
  // there are no statistics.
  double reported_error = 0.0;
  double reported_dual_inf = 0.0;
  double reported_constr_viol = 0.0;
  CallbackCounts counts;        // value calls made by the solver
  int iterations = 0;           // Statistics()->IterationCount()
  double wall_time = 0.0;       // seconds, OptimizeTNLP only
};

// Sets options on an application before Initialize.
using OptionSetter = std::function<void(Ipopt::OptionsList&)>;

// Runs `app` on `tnlp` (wrapped to count callbacks and record the result).
SolverRun RunSolver(const Ipopt::SmartPtr<Ipopt::IpoptApplication>& app,
                    const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp, const std::string& name,
                    const OptionSetter& set_options);

// Sets `name` from text as its registered type reads it: an integer's
// text as an integer, then as a number; a number's text as a number; any
// text as a string last; false when none accepts it, so "1e3" never sets an
// integer option to 1. Only a text that no setter accepts makes Ipopt print
// its complaint (once), so a driver's output stays its own. For benchmark
// drivers that take name=value options on their command line.
bool SetOptionFromText(Ipopt::OptionsList& options, const std::string& name,
                       const std::string& value);

// ||grad f(x) + J(x)^T lambda - z_L + z_U||_2, evaluated through `tnlp`.
double KktResidual(Ipopt::TNLP& tnlp, const Vector& x, const Vector& lambda, const Vector& z_L,
                   const Vector& z_U);

struct Comparison {
  SolverRun ipopt;
  SolverRun qpm;
  std::string Table() const;  // side-by-side text table
};

// Solves with IpoptApplicationFactory() and with QpmApplication; `common` is
// applied to both, then `ipopt_only` / `qpm_only`.
Comparison CompareWithIpopt(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp, const OptionSetter& common,
                            const OptionSetter& ipopt_only = OptionSetter(),
                            const OptionSetter& qpm_only = OptionSetter());

const char* StatusName(Ipopt::ApplicationReturnStatus status);

}  // namespace qpm

#endif  // QPM_IPOPT_COMPARE_HPP_
