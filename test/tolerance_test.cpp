#define BOOST_TEST_MODULE tolerance
#include <boost/test/unit_test.hpp>

#include "qpm/core/tolerance.hpp"

using qpm::FeasibilityTolerance;

namespace {
const double kNorms[] = {0.0, 1e-12, 1e-7, 1e-6, 5e-6, 1e-4, 1e-2, 1.0, 1e3, 1e8};
}

BOOST_AUTO_TEST_CASE(NeverBelowEps1) {
  for (double cap : {0.0, 1e-6, 1e-3, 1e20})
    for (double c : kNorms) BOOST_TEST((FeasibilityTolerance{1e-6, 1e-5, cap}(c)) >= 1e-5);
}

BOOST_AUTO_TEST_CASE(EqualsEps1WheneverFeasibleToEps0) {
  const FeasibilityTolerance tau{1e-6, 1e-5, 1e20};
  for (double c : kNorms)
    if (c <= 1e-6) BOOST_TEST(tau(c) == 1e-5);
}

BOOST_AUTO_TEST_CASE(AdaptiveRuleIsProportionalToInfeasibility) {
  const FeasibilityTolerance tau{1e-6, 1e-5, 1e20};
  BOOST_TEST(tau(1e-2) == 1e-5 / 1e-6 * 1e-2, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(tau(1e3) == 1e-5 / 1e-6 * 1e3, boost::test_tools::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(ZeroCapGivesFixedRule) {
  const FeasibilityTolerance tau{1e-3, 1e-3, 0.0};
  for (double c : kNorms) BOOST_TEST(tau(c) == 1e-3);
}

BOOST_AUTO_TEST_CASE(CapBoundsTheToleranceAndItIsMonotone) {
  const FeasibilityTolerance tau{1e-6, 1e-6, 1e-2};
  double previous = 0.0;
  for (double c : kNorms) {
    BOOST_TEST(tau(c) <= 1e-2);
    BOOST_TEST(tau(c) >= previous);
    previous = tau(c);
  }
}
