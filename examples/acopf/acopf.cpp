// acopf: the AC optimal power flow of a MATPOWER case file (docs/acopf.md),
// solved with qpm, or with Ipopt (--ipopt): the line that creates the
// application is the only difference between the two.
//
//   acopf [--ipopt] case.m [name=value ...]
//
// name=value sets an Ipopt or qpm option (tol, max_iter, print_level, ...,
// qpm_*), read as its registered type. Nothing else is set but print_level 0
// and sb yes (no banner) unless given. Prints one line:
//
//   case solver status objective generation_cost_$/h iterations wall_seconds
//
// Exit code: 0 on Solve_Succeeded, 1 on any other status, 2 when the case
// file or the command line cannot be read.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <qpm/qpm.hpp>

#include "acopf_tnlp.hpp"
#include "matpower_case.hpp"

using namespace Ipopt;

namespace {

constexpr int kExitBadInput = 2;

// Sets name=value by the option's registered type; false with a message.
bool SetOption(IpoptApplication& app, const std::string& assignment, std::string* error) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    *error = "expected name=value, got '" + assignment + "'";
    return false;
  }
  const std::string name = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  const SmartPtr<const RegisteredOption> option = app.RegOptions()->GetOption(name);
  if (!IsValid(option)) {
    *error = "unknown option '" + name + "'";
    return false;
  }
  char* end = nullptr;
  bool ok = false;
  if (option->Type() == OT_Number) {
    const double v = std::strtod(value.c_str(), &end);
    ok = end != value.c_str() && *end == '\0' && app.Options()->SetNumericValue(name, v);
  } else if (option->Type() == OT_Integer) {
    const long v = std::strtol(value.c_str(), &end, 10);
    ok = end != value.c_str() && *end == '\0' &&
         app.Options()->SetIntegerValue(name, static_cast<Index>(v));
  } else {
    ok = app.Options()->SetStringValue(name, value);
  }
  if (!ok) *error = "invalid value '" + value + "' for option '" + name + "'";
  return ok;
}

int Usage() {
  std::fprintf(stderr, "usage: acopf [--ipopt] case.m [name=value Ipopt/qpm options ...]\n");
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  int arg = 1;
  const bool use_ipopt = arg < argc && std::strcmp(argv[arg], "--ipopt") == 0;
  arg += use_ipopt ? 1 : 0;
  if (arg >= argc) return Usage();
  const std::string path = argv[arg++];

  acopf::MatpowerCase grid;
  try {
    grid = acopf::ReadMatpowerCase(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "acopf: %s\n", e.what());
    return kExitBadInput;
  }
  SmartPtr<acopf::AcopfTnlp> nlp = new acopf::AcopfTnlp(grid);

  SmartPtr<IpoptApplication> app =
      use_ipopt ? IpoptApplicationFactory() : new qpm::QpmApplication();  // the one line

  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  for (; arg < argc; ++arg) {
    std::string error;
    if (!SetOption(*app, argv[arg], &error)) {
      std::fprintf(stderr, "acopf: %s\n", error.c_str());
      return kExitBadInput;
    }
  }
  if (app->Initialize() != Solve_Succeeded) return kExitBadInput;

  const auto start = std::chrono::steady_clock::now();
  const ApplicationReturnStatus status = app->OptimizeTNLP(GetRawPtr(nlp));
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  const int iterations = IsValid(app->Statistics()) ? app->Statistics()->IterationCount() : -1;

  std::printf("%s %s %s objective %.8g cost %.8g $/h iterations %d time %.3f s\n",
              grid.name.c_str(), use_ipopt ? "ipopt" : "qpm", qpm::StatusName(status),
              nlp->objective(), nlp->GenerationCost(), iterations, seconds.count());
  return status == Solve_Succeeded ? 0 : 1;
}
