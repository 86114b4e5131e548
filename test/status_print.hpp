// Statuses are compared as enum values (BOOST_TEST(s.termination ==
// qpm::TerminationType::kConverged)), never as the text of their names: a
// renamed message must not change what a test checks. These overloads let
// Boost.Test print the names when such a comparison fails (its
// boost_test_print_type customization point, found by argument-dependent
// lookup in the enum's namespace).
#ifndef QPM_TEST_STATUS_PRINT_HPP_
#define QPM_TEST_STATUS_PRINT_HPP_

#include <ostream>

#include <IpReturnCodes.hpp>

#include "qpm/core/inner_status.hpp"
#include "qpm/core/solver.hpp"
#include "qpm/ipopt/compare.hpp"

namespace qpm {

inline std::ostream& boost_test_print_type(std::ostream& out, TerminationType type) {
  return out << ToString(type);
}

inline std::ostream& boost_test_print_type(std::ostream& out, InnerStatus status) {
  return out << ToString(status);
}

inline std::ostream& boost_test_print_type(std::ostream& out, InnerSolverType type) {
  return out << ToString(type);
}

}  // namespace qpm

namespace Ipopt {

inline std::ostream& boost_test_print_type(std::ostream& out, ApplicationReturnStatus status) {
  return out << qpm::StatusName(status);
}

}  // namespace Ipopt

#endif  // QPM_TEST_STATUS_PRINT_HPP_
