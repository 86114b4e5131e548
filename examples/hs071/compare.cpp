// Solves hs071 with Ipopt and with QPM through qpm::CompareWithIpopt and
// prints the side-by-side table and both primal-dual solutions.
//   hs071_compare [--inner gradient-descent|trust-region|lbfgs] [--tol T]
#include <cstdio>
#include <cstdlib>
#include <string>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "hs071_nlp.hpp"

namespace {

void PrintVector(const char* name, const qpm::Vector& a, const qpm::Vector& b) {
  for (int i = 0; i < a.size(); ++i) {
    std::printf("%-8s[%d]  %15.8f  %15.8f  %9.1e\n", name, i, a[i], b[i], std::abs(a[i] - b[i]));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string inner = "trust-region";
  double tol = 1e-8;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--inner") inner = argv[i + 1];
    else if (arg == "--tol") tol = std::atof(argv[i + 1]);
  }
  Ipopt::SmartPtr<Hs071Nlp> hs071 = new Hs071Nlp();
  hs071->print_solution = false;
  Ipopt::SmartPtr<Ipopt::TNLP> nlp = GetRawPtr(hs071);
  auto common = [tol](Ipopt::OptionsList& o) {
    o.SetNumericValue("tol", tol);
    o.SetIntegerValue("print_level", 0);
    o.SetStringValue("sb", "yes");
  };
  auto qpm_only = [&inner](Ipopt::OptionsList& o) { o.SetStringValue("qpm_inner_solver", inner); };
  const qpm::Comparison c = qpm::CompareWithIpopt(nlp, common, nullptr, qpm_only);
  std::printf("hs071, tol %g, QPM inner solver %s\n\n%s\n", tol, inner.c_str(), c.Table().c_str());
  std::printf("%-11s  %15s  %15s  %9s\n", "", "Ipopt", "QPM", "|diff|");
  PrintVector("x", c.ipopt.x, c.qpm.x);
  PrintVector("lambda", c.ipopt.lambda, c.qpm.lambda);
  PrintVector("z_L", c.ipopt.z_L, c.qpm.z_L);
  PrintVector("z_U", c.ipopt.z_U, c.qpm.z_U);
  return c.qpm.status == Ipopt::Solve_Succeeded ? 0 : 1;
}
