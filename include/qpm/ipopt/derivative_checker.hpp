// Finite-difference check of a TNLP's derivatives, Ipopt's `derivative_test`.
//
// Boundary code (it speaks TNLP, like the adapter). The check runs at the
// starting point moved by a seeded pseudo-random amount within
// `point_perturbation_radius` and the bounds, as Ipopt does, so that a
// derivative that is only right at a special x0 (often 0) is still caught.
// Each derivative entry d is compared with the forward difference
// a = (phi(x + h e_i) - phi(x)) / h, h = perturbation * max(1, |x_i|);
// it is reported as an error when |d - a| / max(1, |a|) >= tol. Lines use
// Ipopt's layout ('*' marks an error, 'v' an entry present in the structure).
#ifndef QPM_IPOPT_DERIVATIVE_CHECKER_HPP_
#define QPM_IPOPT_DERIVATIVE_CHECKER_HPP_

#include <string>
#include <vector>

#include <IpTNLP.hpp>

namespace qpm {

struct DerivativeTestOptions {
  enum class Level { kNone, kFirstOrder, kSecondOrder, kOnlySecondOrder };
  Level level = Level::kNone;              // derivative_test
  double tol = 1e-4;                       // derivative_test_tol
  double perturbation = 1e-8;              // derivative_test_perturbation
  bool print_all = false;                  // derivative_test_print_all
  int first_index = -2;                    // derivative_test_first_index (-1: objective first)
  double point_perturbation_radius = 10.0; // point_perturbation_radius (0: at x0 itself)
};

struct DerivativeTestResult {
  bool evaluated = true;          // false: a callback failed; `failure` says which
  std::string failure;
  int errors = 0;                 // entries with relative error >= tol
  int checked = 0;                // entries compared
  std::vector<std::string> lines; // the report, one line each, Ipopt's layout
};

// Runs the test `options.level` asks for; the model must already have been
// validated (sizes, structures), as the application does before calling it.
DerivativeTestResult CheckDerivatives(Ipopt::TNLP& tnlp, const DerivativeTestOptions& options);

}  // namespace qpm

#endif  // QPM_IPOPT_DERIVATIVE_CHECKER_HPP_
