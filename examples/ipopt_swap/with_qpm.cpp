// The Ipopt program of with_ipopt.cpp, switched to QPM: the qpm include
// and the one line that creates the application are all that changed.
#include <cstdio>

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <qpm/qpm.hpp>

#include "hs7_nlp.hpp"

using namespace Ipopt;

int main() {
  SmartPtr<TNLP> nlp = new Hs7Nlp();
  SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("tol", 1e-7);
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  if (app->Initialize() != Solve_Succeeded) return 1;
  const ApplicationReturnStatus status = app->OptimizeTNLP(nlp);
  std::printf("status %d after %d iterations\n", static_cast<int>(status),
              app->Statistics()->IterationCount());
  return status == Solve_Succeeded ? 0 : 1;
}
