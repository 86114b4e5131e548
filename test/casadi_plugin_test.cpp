// nlpsol("S", "qpm", ...) through the plugin libcasadi_nlpsol_qpm.so, which
// CasADi loads from CASADIPATH (set by test/meson.build to its build dir).
#define BOOST_TEST_MODULE casadi_plugin
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <casadi/casadi.hpp>

using casadi::DM;
using casadi::DMDict;
using casadi::Dict;
using casadi::SX;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// The model of test/casadi/sparse_model.c, written with CasADi symbols:
// min (x0 - p0)^2 + (x1 - p1)^2 + x2^2  s.t.  x0 x1 - x2 = 0, x0 + x1 <= 1.
casadi::Function SparseModelSolver(const Dict& qpm_options) {
  SX x = SX::sym("x", 3), p = SX::sym("p", 2);
  SX f = SX::sq(x(0) - p(0)) + SX::sq(x(1) - p(1)) + SX::sq(x(2));
  SX g = SX::vertcat({x(0) * x(1) - x(2), x(0) + x(1)});
  Dict opts = {{"qpm", qpm_options}, {"print_time", false}};
  return casadi::nlpsol("S", "qpm", casadi::SXDict{{"x", x}, {"p", p}, {"f", f}, {"g", g}},
                        opts);
}

DMDict Solve(const casadi::Function& solver, const std::vector<double>& p) {
  return solver(DMDict{{"x0", DM(std::vector<double>{0.3, 0.2, 0.1})},
                       {"p", DM(p)},
                       {"lbg", DM(std::vector<double>{0.0, -kInf})},
                       {"ubg", DM(std::vector<double>{0.0, 1.0})}});
}

void CheckClose(const DM& a, const std::vector<double>& b, double tol) {
  const std::vector<double> v = a.get_elements();
  BOOST_REQUIRE_EQUAL(v.size(), b.size());
  for (size_t i = 0; i < v.size(); ++i) BOOST_TEST(std::abs(v[i] - b[i]) <= tol);
}

Dict Quiet(Dict extra = {}) {
  extra["print_level"] = 0;
  extra["sb"] = "yes";
  extra["tol"] = 1e-7;
  return extra;
}

}  // namespace

BOOST_AUTO_TEST_CASE(PluginLoadsAndReportsItsName) {
  BOOST_TEST(casadi::has_nlpsol("qpm"));
  BOOST_TEST(SparseModelSolver(Quiet()).class_name() == "QpmNlpsol");
}

// p = (2, 2): x* = (1/2, 1/2, 1/4), f* = 73/16, lam_g = (1/2, 11/4);
// p = (0, 0): x* = 0.
// (return_status is text in CasADi's stats, as for its own ipopt plugin:
// there the string is the interface under test, and no Ipopt enum crosses it.)
BOOST_AUTO_TEST_CASE(SolvesWithExactHessianAndFollowsTheParameters) {
  casadi::Function S = SparseModelSolver(Quiet({{"qpm_inner_solver", "trust-region"}}));
  DMDict r = Solve(S, {2.0, 2.0});
  BOOST_TEST(S.stats().at("return_status").to_string() == "Solve_Succeeded");
  BOOST_TEST(S.stats().at("success").to_bool());
  BOOST_TEST(S.stats().at("iter_count").to_int() > 0);
  BOOST_TEST(std::abs(static_cast<double>(r.at("f")) - 4.5625) <= 1e-5);
  CheckClose(r.at("x"), {0.5, 0.5, 0.25}, 1e-5);
  CheckClose(r.at("lam_g"), {0.5, 2.75}, 1e-4);
  CheckClose(r.at("g"), {0.0, 1.0}, 1e-5);
  r = Solve(S, {0.0, 0.0});
  BOOST_TEST(S.stats().at("return_status").to_string() == "Solve_Succeeded");
  CheckClose(r.at("x"), {0.0, 0.0, 0.0}, 1e-5);
}

BOOST_AUTO_TEST_CASE(SolvesWithLimitedMemoryWithoutNlpHessL) {
  casadi::Function S = SparseModelSolver(Quiet({{"hessian_approximation", "limited-memory"}}));
  BOOST_TEST(!S.has_function("nlp_hess_l"));
  DMDict r = Solve(S, {2.0, 2.0});
  BOOST_TEST(S.stats().at("return_status").to_string() == "Solve_Succeeded");
  CheckClose(r.at("x"), {0.5, 0.5, 0.25}, 1e-5);
}

BOOST_AUTO_TEST_CASE(ActiveVariableBoundGivesPositiveLamX) {
  casadi::Function S = SparseModelSolver(Quiet({{"qpm_inner_solver", "trust-region"}}));
  DMDict r = S(DMDict{{"x0", DM(std::vector<double>{0.3, 0.2, 0.1})},
                      {"p", DM(std::vector<double>{2.0, 2.0})},
                      {"ubx", DM(std::vector<double>{kInf, 0.25, kInf})},
                      {"lbg", DM(std::vector<double>{0.0, -kInf})},
                      {"ubg", DM(std::vector<double>{0.0, 1.0})}});
  BOOST_TEST(S.stats().at("return_status").to_string() == "Solve_Succeeded");
  BOOST_TEST(std::abs(r.at("x").get_elements()[1] - 0.25) <= 1e-5);
  BOOST_TEST(r.at("lam_x").get_elements()[1] > 0.0);
}

BOOST_AUTO_TEST_CASE(AnUnknownOptionFailsWhenTheSolverIsCreated) {
  BOOST_CHECK_THROW(SparseModelSolver(Quiet({{"no_such_option", 1}})), std::exception);
}
