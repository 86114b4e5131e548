// qpm: the AMPL solver driver.
//
//   qpm model.nl [-AMPL] [name=value ...]
//   qpm --help    usage and the options with their choices
//   qpm -=        the options, one line each (AMPL's convention)
//   qpm -v        the version, then exit 0
//
// Follows the AMPL solver conventions (as Ipopt's own AMPL driver does):
// reads model.nl, solves it with the Quadratic Penalty Method and writes
// model.sol (solve_result_num, message, x and the constraint duals). Options
// come, in increasing precedence, from the option file (ipopt.opt, read by
// Initialize()), the qpm_options environment variable (space-separated
// name=value, AMPL's <solver>_options convention) and the command line.
//
// Exit code: 0 when model.sol was written (the solve status is in the .sol
// file, as AMPL expects), 1 for usage, option or read errors, 2 when the
// solve produced no solution to write.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <IpRegOptions.hpp>
#include <IpoptConfig.h>  // IPOPT_VERSION

#include "qpm/ampl/ampl_tnlp.hpp"
#include "qpm/core/option_table.hpp"
#include "qpm/ipopt/application.hpp"
#include "ipopt/ipopt_options.hpp"

namespace {

using Ipopt::ApplicationReturnStatus;
using Ipopt::SmartPtr;

struct CommandLine {
  std::string stub;
  bool help = false;
  bool list_options = false;  // -=: the short listing instead of the help
  bool ampl = false;  // -AMPL: called by AMPL
  bool version = false;  // -v: print the version and exit
  std::vector<std::pair<std::string, std::string>> options;
};

void PrintUsage() {
  std::printf(
      "usage: qpm model[.nl] [-AMPL] [name=value ...]\n"
      "       qpm --help | -= | -v\n"
      "Solves the AMPL model with the Quadratic Penalty Method and writes model.sol.\n"
      "Options: ipopt.opt (option file), then $qpm_options, then the command line.\n");
}

bool SplitOption(const std::string& token, CommandLine* cl, std::string* error) {
  const std::size_t eq = token.find('=');
  if (eq == std::string::npos || eq == 0) {
    *error = "expected name=value, got '" + token + "'";
    return false;
  }
  cl->options.emplace_back(token.substr(0, eq), token.substr(eq + 1));
  return true;
}

bool ParseCommandLine(int argc, char** argv, CommandLine* cl, std::string* error) {
  if (const char* env = std::getenv("qpm_options")) {
    std::istringstream words(env);
    std::string token;
    while (words >> token) {
      if (!SplitOption(token, cl, error)) {
        *error = "in $qpm_options: " + *error;
        return false;
      }
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h" || arg == "-?" || arg == "-=") {
      cl->help = true;
      cl->list_options = arg == "-=";
    } else if (arg == "-AMPL") {
      cl->ampl = true;
    } else if (arg == "-v") {
      cl->version = true;
    } else if (!arg.empty() && arg[0] == '-') {
      *error = "unknown flag '" + arg + "'";
      return false;
    } else if (cl->stub.empty() && arg.find('=') == std::string::npos) {
      cl->stub = arg;
    } else if (!SplitOption(arg, cl, error)) {
      return false;
    }
  }
  if (!cl->help && !cl->version && cl->stub.empty()) *error = "no model file given";
  return cl->help || cl->version || !cl->stub.empty();
}

// The listings below come from the option tables (qpm/core/option_table.hpp,
// src/ipopt/ipopt_options.hpp); `defaults` holds the qpm_* values this
// executable solves with when no option is given.
struct Listing {
  SmartPtr<Ipopt::IpoptApplication> app;
  qpm::Options defaults;
};

Listing MakeListing() {
  Listing l{new qpm::QpmApplication(false), qpm::Options()};
  qpm::ReadTableOptions(*l.app->Options(), &l.defaults);
  return l;
}

std::string ChoiceNames(const qpm::OptionEntry& e) {
  std::string names;
  for (const qpm::OptionChoice& c : e.choices) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

// qpm -=: AMPL's `name  meaning (default ...)`, one line per option.
void PrintOptionList(const Listing& l) {
  for (const qpm::OptionEntry& e : qpm::OptionTable()) {
    if (!e.registered) continue;
    const std::string choices = e.choices.empty() ? "" : " One of " + ChoiceNames(e) + ".";
    std::printf("%-28s %s%s (default %s)\n", e.name.c_str(), e.meaning.c_str(), choices.c_str(),
                e.Format(e.get(l.defaults)).c_str());
  }
  for (const qpm::IpoptOptionUse& use : qpm::IpoptOptionsRead()) {
    const SmartPtr<const Ipopt::RegisteredOption> option = l.app->RegOptions()->GetOption(use.name);
    if (!Ipopt::IsValid(option)) continue;
    std::printf("%-28s %s (Ipopt's default %s)\n", use.name, use.use,
                qpm::DefaultText(*option).c_str());
  }
}

void PrintTableOption(const qpm::OptionEntry& e, const qpm::Options& defaults) {
  const std::string range = e.range.ToString();
  std::printf("  %-28s (default %s%s%s)\n      %s\n", e.name.c_str(),
              e.Format(e.get(defaults)).c_str(), range.empty() ? "" : ", ", range.c_str(),
              e.meaning.c_str());
  for (const qpm::OptionChoice& c : e.choices) {
    std::printf("        %-20s %s\n", c.name.c_str(), c.meaning.c_str());
  }
  if (!e.details.empty()) std::printf("      %s\n", e.details.c_str());
}

void PrintHelp(const Listing& l) {
  PrintUsage();
  std::printf("\nQPM options:\n");
  for (const qpm::OptionEntry& e : qpm::OptionTable()) {
    if (e.registered) PrintTableOption(e, l.defaults);
  }
  std::printf("\nIpopt options qpm reads:\n");
  for (const qpm::IpoptOptionUse& use : qpm::IpoptOptionsRead()) {
    const SmartPtr<const Ipopt::RegisteredOption> option = l.app->RegOptions()->GetOption(use.name);
    if (!Ipopt::IsValid(option)) continue;
    std::printf("  %-28s (Ipopt's default %s)\n      %s\n", use.name,
                qpm::DefaultText(*option).c_str(), use.use);
  }
}

// Sets one option by its registered type; false with a message otherwise.
bool SetOption(Ipopt::IpoptApplication& app, const std::string& name, const std::string& value,
               std::string* error) {
  const SmartPtr<const Ipopt::RegisteredOption> option = app.RegOptions()->GetOption(name);
  if (!Ipopt::IsValid(option)) {
    *error = "unknown option '" + name + "' (qpm --help lists the options)";
    return false;
  }
  char* end = nullptr;
  bool ok = false;
  if (option->Type() == Ipopt::OT_Number) {
    const double v = std::strtod(value.c_str(), &end);
    ok = end != value.c_str() && *end == '\0' && app.Options()->SetNumericValue(name, v);
  } else if (option->Type() == Ipopt::OT_Integer) {
    const long v = std::strtol(value.c_str(), &end, 10);
    ok = end != value.c_str() && *end == '\0' &&
         app.Options()->SetIntegerValue(name, static_cast<Ipopt::Index>(v));
  } else {
    ok = app.Options()->SetStringValue(name, value);
  }
  if (!ok) *error = "invalid value '" + value + "' for option '" + name + "'";
  return ok;
}

bool SetOptions(Ipopt::IpoptApplication& app, const CommandLine& cl) {
  for (const auto& [name, value] : cl.options) {
    std::string error;
    if (!SetOption(app, name, value, &error)) {
      std::fprintf(stderr, "qpm: %s\n", error.c_str());
      return false;
    }
  }
  return true;
}

// AMPL's solve_result_num ranges: 0-99 solved, 100-199 solved?, 200-299
// infeasible, 300-399 unbounded, 400-499 limit reached, 500-599 failure.
int SolveResultNum(ApplicationReturnStatus status) {
  switch (status) {
    case Ipopt::Solve_Succeeded: return 0;
    case Ipopt::Solved_To_Acceptable_Level: return 100;
    case Ipopt::Infeasible_Problem_Detected: return 200;
    case Ipopt::Diverging_Iterates: return 300;
    case Ipopt::Maximum_Iterations_Exceeded: return 400;
    case Ipopt::Maximum_CpuTime_Exceeded: return 401;
    case Ipopt::User_Requested_Stop: return 402;
    case Ipopt::Search_Direction_Becomes_Too_Small: return 500;
    case Ipopt::Invalid_Number_Detected: return 510;
    default: return 520;
  }
}

int Solve(const CommandLine& cl) {
  std::string error;
  const SmartPtr<qpm::AmplTnlp> tnlp = qpm::AmplTnlp::Read(cl.stub, &error);
  if (Ipopt::IsNull(tnlp)) {
    std::fprintf(stderr, "qpm: %s\n", error.c_str());
    return 1;
  }
  SmartPtr<Ipopt::IpoptApplication> app = new qpm::QpmApplication();
  // Before Initialize() so that output_file takes effect, and again after it
  // so that the command line wins over ipopt.opt.
  if (!SetOptions(*app, cl)) return 1;
  if (app->Initialize() != Ipopt::Solve_Succeeded) {
    std::fprintf(stderr, "qpm: error in the option file\n");
    return 1;
  }
  if (!SetOptions(*app, cl)) return 1;
  const ApplicationReturnStatus status = app->OptimizeTNLP(tnlp);
  const std::string message = std::string("qpm 0.1.0: ") + qpm::ExitMessage(status);
  if (!tnlp->WriteSolution(message, SolveResultNum(status))) {
    std::fprintf(stderr, "qpm: %s; no solution to write\n", message.c_str());
    return 2;
  }
  // write_sol has printed the message; the objective carries the model's sign.
  if (!cl.ampl) std::printf("objective %.16g\n", tnlp->Solution().objective);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine cl;
  std::string error;
  if (!ParseCommandLine(argc, argv, &cl, &error)) {
    std::fprintf(stderr, "qpm: %s\n", error.c_str());
    PrintUsage();
    return 1;
  }
  if (cl.version) {  // AMPL's "solver -v"
    std::printf("qpm %s (Quadratic Penalty Method), ASL(%ld), Ipopt %s\n", QPM_VERSION,
                qpm::AmplTnlp::AslDate(), IPOPT_VERSION);
    return 0;
  }
  if (cl.help) {
    const Listing listing = MakeListing();
    if (cl.list_options) {
      PrintOptionList(listing);
    } else {
      PrintHelp(listing);
    }
    return 0;
  }
  return Solve(cl);
}
