// Evaluation faults at any call: QPM and Ipopt at their defaults (tol 1e-8)
// on the same faulty models, side by side. Each case wraps a model of the
// test library (models/model_library.cpp) in qpm_test::FaultTnlp, which
// writes NaN or Inf into one entry of eval_grad_f's or eval_jac_g's output at
// one of the calls 2 to 6 ("once"), or at every call from there on
// ("persists"). Cases are drawn from a fixed seed; each solve runs in a
// child process. Prints a Markdown table and the status counts per solver
// ("not f*": Solve_Succeeded away from the model's known optimal value;
// "not reached": the solve ended before the faulty call). Measured, not a
// timed test.
//
//   fault_injection [--cases N] [--seed S] [--persist N]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <IpIpoptApplication.hpp>
#include <qpm/qpm.hpp>

#include "fault_tnlp.hpp"
#include "model_library.hpp"

using Ipopt::SmartPtr;
using qpm_test::Fault;
using qpm_test::FaultCallback;
using qpm_test::FaultKind;

namespace {

struct Case {
  std::string model;
  Fault fault;
};

// `fired`: whether the solve made the faulty call (it may end before).
qpm::SolverRun Run(const qpm_test::Model& model, const Fault& fault, bool ipopt, bool* fired) {
  SmartPtr<qpm_test::FaultTnlp> faulty = new qpm_test::FaultTnlp(new qpm_test::ModelTnlp(model), fault);
  SmartPtr<Ipopt::TNLP> tnlp = GetRawPtr(faulty);
  SmartPtr<Ipopt::IpoptApplication> app =
      ipopt ? IpoptApplicationFactory() : SmartPtr<Ipopt::IpoptApplication>(new qpm::QpmApplication());
  const qpm::SolverRun run =
      qpm::RunSolver(app, tnlp, ipopt ? "Ipopt" : "QPM", [](Ipopt::OptionsList& o) {
        o.SetNumericValue("tol", 1e-8);
        o.SetIntegerValue("print_level", 0);
        o.SetStringValue("sb", "yes");
      });
  *fired = faulty->injected();
  return run;
}

std::vector<Case> Draw(int count, bool persist, std::mt19937* rng,
                       const std::vector<qpm_test::Model>& models) {
  std::vector<Case> cases;
  while (static_cast<int>(cases.size()) < count) {
    const qpm_test::Model& m = models[(*rng)() % models.size()];
    Case c;
    c.model = m.name;
    c.fault.callback = (*rng)() % 2 ? FaultCallback::kJacG : FaultCallback::kGradF;
    if (m.m == 0 && c.fault.callback == FaultCallback::kJacG) continue;
    c.fault.kind = (*rng)() % 2 ? FaultKind::kInf : FaultKind::kNaN;
    c.fault.first_call = 2 + static_cast<long>((*rng)() % 5);
    c.fault.last_call = persist ? 1L << 40 : c.fault.first_call;
    c.fault.entry = static_cast<int>((*rng)() % 1000);
    cases.push_back(c);
  }
  return cases;
}

// One solve in a child process: Ipopt 3.11's MUMPS crashes on some faults
// (a NaN Jacobian entry in its least-squares multipliers), which must not
// end the bench. The cell: status, f, wall time, or how the child died.
std::string Cell(const qpm_test::Model& model, const Fault& fault, bool ipopt, std::string* key) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  std::fflush(stdout);  // or the child's Ipopt flushes the parent's buffer again
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    bool fired = false;
    const qpm::SolverRun r = Run(model, fault, ipopt, &fired);
    char buffer[192];
    const bool optimal = std::abs(r.f - model.f_star) <= 1e-6 * (1 + std::abs(model.f_star));
    const bool solved = r.status == Ipopt::Solve_Succeeded;
    const int length = std::snprintf(buffer, sizeof buffer, "%s%s|%s f=%.8g (%.3f s)%s%s",
                                     qpm::StatusName(r.status), solved && !optimal ? " (not f*)" : "",
                                     qpm::StatusName(r.status), r.f, r.wall_time,
                                     solved && !optimal ? ", not the known f*" : "",
                                     fired ? "" : ", fault not reached");
    const std::string text = std::string(buffer, length) + (fired ? "" : "|not reached");
    if (write(fds[1], text.data(), text.size()) < 0) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char chunk[256];
  for (ssize_t got; (got = read(fds[0], chunk, sizeof chunk)) > 0;) text.append(chunk, got);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    *key = std::string("crashed (") + strsignal(WTERMSIG(status)) + ")";
    return *key;
  }
  const size_t bar = text.find('|');
  if (bar == std::string::npos) return *key = "no result";
  *key = text.substr(0, bar);
  std::string cell = text.substr(bar + 1);
  const size_t tail = cell.find('|');
  if (tail != std::string::npos) *key += " (not reached)", cell.resize(tail);
  return cell;
}

}  // namespace

int main(int argc, char** argv) {
  int cases_once = 20, cases_persist = 10;
  unsigned seed = 20261125;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases")) cases_once = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--persist")) cases_persist = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
  }
  const std::vector<qpm_test::Model> models = qpm_test::AllModels();
  std::map<std::string, const qpm_test::Model*> by_name;
  for (const auto& m : models) by_name[m.name] = &m;
  std::mt19937 rng(seed);
  std::printf("| # | model | callback | value | calls | QPM | Ipopt |\n|---|---|---|---|---|---|---|\n");
  std::map<std::string, int> counts[2];
  int index = 0;
  for (bool persist : {false, true}) {
    for (const Case& c : Draw(persist ? cases_persist : cases_once, persist, &rng, models)) {
      const qpm_test::Model& m = *by_name[c.model];
      const std::string kind = persist ? "persists: " : "once: ";
      std::string q_key, ip_key;
      const std::string q = Cell(m, c.fault, false, &q_key);
      const std::string ip = Cell(m, c.fault, true, &ip_key);
      ++counts[0][kind + q_key];
      ++counts[1][kind + ip_key];
      char calls[32];
      if (persist) std::snprintf(calls, sizeof calls, "%ld on", c.fault.first_call);
      else std::snprintf(calls, sizeof calls, "%ld", c.fault.first_call);
      std::printf("| %d | %s | %s | %s | %s | %s | %s |\n", ++index, c.model.c_str(),
                  qpm_test::FaultCallbackName(c.fault.callback), qpm_test::FaultKindName(c.fault.kind),
                  calls, q.c_str(), ip.c_str());
    }
  }
  const char* names[] = {"QPM", "Ipopt"};
  for (int s = 0; s < 2; ++s) {
    std::printf("\n%s:\n", names[s]);
    for (const auto& [what, count] : counts[s]) std::printf("  %3d  %s\n", count, what.c_str());
  }
  return 0;
}
