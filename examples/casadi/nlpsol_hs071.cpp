// Ipopt's classic HS071 through nlpsol("S", "qpm", ...) with no options at
// all: what a CasADi user who swaps "ipopt" for "qpm" gets. Built only when
// CasADi is found; run with CASADIPATH set to the plugin's directory:
//   CASADIPATH=build/src/casadi/plugin build/examples/nlpsol_hs071
#include <iostream>
#include <limits>

#include <casadi/casadi.hpp>

int main() {
  using casadi::SX;
  const double inf = std::numeric_limits<double>::infinity();
  SX x = SX::sym("x", 4);
  SX f = x(0) * x(3) * (x(0) + x(1) + x(2)) + x(2);
  SX g = SX::vertcat({x(0) * x(1) * x(2) * x(3),
                      x(0) * x(0) + x(1) * x(1) + x(2) * x(2) + x(3) * x(3)});
  casadi::Function S = casadi::nlpsol("S", "qpm", casadi::SXDict{{"x", x}, {"f", f}, {"g", g}});
  casadi::DMDict r = S(casadi::DMDict{{"x0", casadi::DM({1.0, 5.0, 5.0, 1.0})},
                                      {"lbx", casadi::DM({1.0, 1.0, 1.0, 1.0})},
                                      {"ubx", casadi::DM({5.0, 5.0, 5.0, 5.0})},
                                      {"lbg", casadi::DM({25.0, 40.0})},
                                      {"ubg", casadi::DM({inf, 40.0})}});
  std::cout << "x = " << r.at("x") << ", f = " << r.at("f") << ", lam_g = " << r.at("lam_g")
            << "\nreturn_status = " << S.stats().at("return_status")
            << ", iter_count = " << S.stats().at("iter_count") << std::endl;
  return S.stats().at("success").to_bool() ? 0 : 1;
}
