// nlpsol("S", "qpm", ...) from C++ (built only when CasADi is found). Run
// with CASADIPATH set to the directory of libcasadi_nlpsol_qpm.so:
//   CASADIPATH=build/src/casadi/plugin build/examples/nlpsol_qpm
#include <iostream>
#include <limits>

#include <casadi/casadi.hpp>

int main() {
  using casadi::SX;
  const double inf = std::numeric_limits<double>::infinity();
  SX x = SX::sym("x", 3), p = SX::sym("p", 2);
  SX f = SX::sq(x(0) - p(0)) + SX::sq(x(1) - p(1)) + SX::sq(x(2));
  SX g = SX::vertcat({x(0) * x(1) - x(2), x(0) + x(1)});
  casadi::Dict opts = {{"qpm", casadi::Dict{{"tol", 1e-7}, {"qpm_inner_solver", "trust-region"}}}};
  casadi::Function S =
      casadi::nlpsol("S", "qpm", casadi::SXDict{{"x", x}, {"p", p}, {"f", f}, {"g", g}}, opts);
  casadi::DMDict r = S(casadi::DMDict{{"x0", casadi::DM({0.3, 0.2, 0.1})},
                                      {"p", casadi::DM({2.0, 2.0})},
                                      {"lbg", casadi::DM({0.0, -inf})},
                                      {"ubg", casadi::DM({0.0, 1.0})}});
  std::cout << "x = " << r.at("x") << ", f = " << r.at("f") << ", lam_g = " << r.at("lam_g")
            << "\nreturn_status = " << S.stats().at("return_status")
            << ", iter_count = " << S.stats().at("iter_count") << std::endl;
  return S.stats().at("success").to_bool() ? 0 : 1;
}
