#define BOOST_TEST_MODULE ampl_fuzz
#include <boost/test/unit_test.hpp>

// Damaged .nl files, made from fixed seeds out of valid models: truncated
// at many offsets, bytes flipped, inserted and deleted, lines replaced,
// header counts changed (up to 1e20), a text body announced as binary and
// back. Each is read by AmplTnlp::Read in a child process under a time and
// a memory limit; a model it accepts is also evaluated at its start point.
// Every case must end with a read model or a refusal with a message: no
// signal, no exit from inside the reader (the ASL's exit(1), a sanitizer's
// report), no case over the limits.
//
// Models: the text models of test/nl/, four small corpus models when
// ../shared/nl-corpus exists beside the source tree, and the binary form of
// each (written by the ASL's fg_write). Scratch files live in a temporary
// directory, removed at the end unless a case failed.

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "nl_binary.hpp"
#include "qpm/ampl/ampl_tnlp.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define QPM_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QPM_UNDER_ASAN 1
#endif
#endif
#ifndef QPM_UNDER_ASAN
#define QPM_UNDER_ASAN 0
#endif

namespace fs = std::filesystem;
using Ipopt::Index;
using Ipopt::Number;

namespace {

// Limits on one child. ASan reserves terabytes of address space, so
// RLIMIT_AS is set only without it; the peak RSS (ru_maxrss from wait4,
// over the parent's at fork) is checked in both builds. The models need
// a few MB.
constexpr unsigned kWallSeconds = 10;                      // alarm()
constexpr rlim_t kCpuSeconds = 5;                          // RLIMIT_CPU
constexpr long kAddressSpaceMb = 512;                      // RLIMIT_AS over the parent's
constexpr long kRssLimitMb = QPM_UNDER_ASAN ? 512 : 128;   // peak RSS over the parent's
constexpr unsigned kSeed = 17;

// Exit codes of the child; anything else is a failure.
constexpr int kExitRead = 40;      // read and evaluated a model
constexpr int kExitRefused = 41;   // Read returned null with a message
constexpr int kExitSilent = 42;    // Read returned null without a message

// Small corpus models (text, 0.9-1.7 kB; aircraftb and s365mod have common
// expressions).
const char* const kCorpusModels[] = {"polak4.nl", "hs106.nl", "s365mod.nl", "aircraftb.nl"};
const char* const kTestModels[] = {"equality.nl", "inequality.nl", "maximize.nl", "evalerror.nl"};

struct Model {
  std::string name;
  std::string bytes;
};

struct Case {
  std::string model;
  std::string what;  // the mutation
  std::string bytes;
};

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Offsets just past each of the first `lines` newlines.
std::vector<std::size_t> LineEnds(const std::string& s, std::size_t lines) {
  std::vector<std::size_t> ends;
  for (std::size_t p = 0; ends.size() < lines && (p = s.find('\n', p)) != std::string::npos;) {
    ends.push_back(++p);
  }
  return ends;
}

// The file's lines (text models: all of them; binary: the header's).
std::vector<std::string> Lines(const std::string& s, bool binary) {
  std::vector<std::string> lines;
  const std::size_t end = binary ? LineEnds(s, 10).back() : s.size();
  std::size_t start = 0;
  while (start < end) {
    std::size_t nl = s.find('\n', start);
    if (nl == std::string::npos || nl >= end) nl = end;
    lines.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines, const std::string& rest) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out + rest;
}

class CaseMaker {
 public:
  explicit CaseMaker(std::vector<Case>* cases) : cases_(cases), rng_(kSeed) {}

  void AddAll(const Model& m) {
    model_ = &m;
    binary_ = !m.bytes.empty() && m.bytes[0] == 'b';
    header_end_ = LineEnds(m.bytes, 10).back();
    Truncations();
    ByteChanges();
    LineReplacements();
    HeaderCounts();
    FormatSwaps();
  }

 private:
  void Add(const std::string& what, std::string bytes) {
    cases_->push_back({model_->name, what, std::move(bytes)});
  }
  std::size_t Uniform(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  // Every 4th offset in the header, 30 spread over the body.
  void Truncations() {
    const std::string& s = model_->bytes;
    for (std::size_t at = 0; at < header_end_; at += 4) Add("truncated at " + std::to_string(at), s.substr(0, at));
    for (int k = 0; k < 30; ++k) {
      const std::size_t at = header_end_ + (s.size() - header_end_) * k / 30;
      Add("truncated at " + std::to_string(at), s.substr(0, at));
    }
  }

  // A bit flipped, a byte set to a random value or a digit, a byte deleted
  // or inserted: half in the header, half in the body.
  void ByteChanges() {
    for (int k = 0; k < 80; ++k) {
      std::string s = model_->bytes;
      const std::size_t at = k % 2 == 0 ? Uniform(header_end_) : header_end_ + Uniform(s.size() - header_end_);
      const char byte = static_cast<char>(Uniform(256));
      std::string what;
      switch (Uniform(5)) {
        case 0: s[at] ^= static_cast<char>(1 << Uniform(8)); what = "bit flipped"; break;
        case 1: s[at] = byte; what = "byte set"; break;
        case 2: s[at] = static_cast<char>('0' + Uniform(10)); what = "digit set"; break;
        case 3: s.erase(at, 1); what = "byte deleted"; break;
        default: s.insert(at, 1, byte); what = "byte inserted"; break;
      }
      Add(what + " at " + std::to_string(at), s);
    }
  }

  // A line replaced by another of the file or by a line of another segment,
  // an out-of-range index, a huge count.
  void LineReplacements() {
    static const char* const kJunk[] = {
        "", "#", "o54", "o0", "o2", "2147483647", "-5", "C999", "C0", "O0 0", "J0 99999",
        "J0 2147483647", "G0 2147483647", "x5", "x2147483647", "k1", "k5", "b", "r", "S0 1 foo",
        "S0 2147483647 foo", "n1e308", "nnan", "v2147483647", "v-1", "f0 2", "F0 0 -1 foo",
        "V9 1 0", "d2147483647", "h9999:ab", "o54\n2147483647", "o11\n2147483647", "o64\n2147483647"};
    const std::vector<std::string> lines = Lines(model_->bytes, binary_);
    const std::string rest = binary_ ? model_->bytes.substr(header_end_) : "";
    for (int k = 0; k < 40; ++k) {
      std::vector<std::string> l = lines;
      const std::size_t i = k < 10 ? Uniform(std::min<std::size_t>(10, l.size())) : Uniform(l.size());
      if (k % 3 == 0) {
        const std::size_t j = Uniform(lines.size());
        l[i] = lines[j];
        Add("line " + std::to_string(i + 1) + " replaced by line " + std::to_string(j + 1), JoinLines(l, rest));
      } else {
        const char* junk = kJunk[Uniform(std::size(kJunk))];
        l[i] = junk;
        Add("line " + std::to_string(i + 1) + " replaced by '" + junk + "'", JoinLines(l, rest));
      }
    }
  }

  // One integer of header lines 2-10 changed, up to 1e20.
  void HeaderCounts() {
    const std::vector<std::string> lines = Lines(model_->bytes.substr(0, header_end_), false);
    const std::string rest = model_->bytes.substr(header_end_);
    for (int k = 0; k < 60; ++k) {
      std::vector<std::string> l = lines;
      const std::size_t i = 1 + Uniform(9);
      std::vector<std::pair<std::size_t, std::size_t>> ints;  // [begin, end) of each integer
      const std::string& line = l[i];
      for (std::size_t p = 0; p < line.size() && line[p] != '#';) {
        if (line[p] == '-' || std::isdigit(static_cast<unsigned char>(line[p]))) {
          std::size_t e = p + 1;
          while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
          ints.emplace_back(p, e);
          p = e;
        } else {
          ++p;
        }
      }
      if (ints.empty()) continue;
      const auto [b, e] = ints[Uniform(ints.size())];
      const std::string old_text = line.substr(b, e - b);
      const long long old = std::atoll(old_text.c_str());
      const std::string values[] = {"0", "-1", "1", std::to_string(old + 1), std::to_string(old - 1),
                                    std::to_string(2 * old + 3), std::to_string(old * 1000 + 1000),
                                    "65536", "2147483647", "2147483648", "4294967297",
                                    "4000000000000", "99999999999999999999"};
      const std::string v = values[Uniform(std::size(values))];
      l[i] = line.substr(0, b) + v + line.substr(e);
      Add("header line " + std::to_string(i + 1) + ": " + old_text + " -> " + v, JoinLines(l, rest));
    }
  }

  // 'g' <-> 'b', alone, then with a truncation or a changed byte.
  void FormatSwaps() {
    std::string swapped = model_->bytes;
    swapped[0] = binary_ ? 'g' : 'b';
    const std::string what = binary_ ? "'b' -> 'g'" : "'g' -> 'b'";
    Add(what, swapped);
    for (int k = 1; k <= 5; ++k) {
      const std::size_t at = header_end_ + (swapped.size() - header_end_) * k / 6;
      Add(what + ", truncated at " + std::to_string(at), swapped.substr(0, at));
      std::string changed = swapped;
      changed[at] = static_cast<char>(Uniform(256));
      Add(what + ", byte set at " + std::to_string(at), changed);
    }
  }

  std::vector<Case>* cases_;
  std::mt19937 rng_;
  const Model* model_ = nullptr;
  bool binary_ = false;
  std::size_t header_end_ = 0;
};

// In the child: read, and evaluate an accepted model at its start point.
[[noreturn]] void ReadInChild(const std::string& path) {
  std::string error;
  Ipopt::SmartPtr<qpm::AmplTnlp> t = qpm::AmplTnlp::Read(path, &error);
  if (Ipopt::IsNull(t)) _exit(error.empty() ? kExitSilent : kExitRefused);
  Index n = 0, m = 0, nj = 0, nh = 0;
  Ipopt::TNLP::IndexStyleEnum style;
  t->get_nlp_info(n, m, nj, nh, style);
  std::vector<Number> xl(n), xu(n), gl(m), gu(m), x(n), g(m), grad(n), lambda(m, 1.0), jac(nj), hes(nh);
  std::vector<Index> jr(nj), jc(nj), hr(nh), hc(nh);
  Number f = 0.0;
  t->get_bounds_info(n, xl.data(), xu.data(), m, gl.data(), gu.data());
  t->get_starting_point(n, true, x.data(), false, nullptr, nullptr, m, false, nullptr);
  t->eval_f(n, x.data(), true, f);
  t->eval_grad_f(n, x.data(), false, grad.data());
  t->eval_g(n, x.data(), false, m, g.data());
  t->eval_jac_g(n, nullptr, false, m, nj, jr.data(), jc.data(), nullptr);
  t->eval_jac_g(n, x.data(), false, m, nj, nullptr, nullptr, jac.data());
  t->eval_h(n, nullptr, false, 1.0, m, nullptr, false, nh, hr.data(), hc.data(), nullptr);
  t->eval_h(n, x.data(), false, 1.0, m, lambda.data(), true, nh, nullptr, nullptr, hes.data());
  _exit(kExitRead);
}

long RssKb() {
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  return self.ru_maxrss;
}

long VirtualMemoryBytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  statm >> pages;
  return pages * sysconf(_SC_PAGESIZE);
}

struct Outcome {
  std::string kind;  // "read", "refused", or what went wrong
  long rss_over_parent_kb = 0;
  double seconds = 0.0;
  bool ok() const { return kind == "read" || kind == "refused"; }
};

Outcome RunCase(const fs::path& file, const fs::path& err_file) {
  const long parent_rss_kb = RssKb();
  const long parent_vm = VirtualMemoryBytes();
  const auto start = std::chrono::steady_clock::now();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    // Boost.Test's handlers would turn a crash into an ordinary exit.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGXCPU}) std::signal(sig, SIG_DFL);
    const int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(err, STDERR_FILENO);
    dup2(err, STDOUT_FILENO);
    const rlimit cpu{kCpuSeconds, kCpuSeconds + 1};
    setrlimit(RLIMIT_CPU, &cpu);
    if (!QPM_UNDER_ASAN) {
      const rlim_t as = static_cast<rlim_t>(parent_vm) + (static_cast<rlim_t>(kAddressSpaceMb) << 20);
      const rlimit limit{as, as};
      setrlimit(RLIMIT_AS, &limit);
    }
    alarm(kWallSeconds);
    ReadInChild(file.string());
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Outcome o;
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.rss_over_parent_kb = std::max(0L, usage.ru_maxrss - parent_rss_kb);
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    o.kind = sig == SIGALRM || sig == SIGXCPU ? "over the time limit" : std::string("signal ") + strsignal(sig);
  } else if (WEXITSTATUS(status) == kExitRead) {
    o.kind = "read";
  } else if (WEXITSTATUS(status) == kExitRefused) {
    o.kind = "refused";
  } else if (WEXITSTATUS(status) == kExitSilent) {
    o.kind = "refused without a message";
  } else {
    o.kind = "exit " + std::to_string(WEXITSTATUS(status)) + " inside the reader";
  }
  if (o.ok() && o.rss_over_parent_kb > kRssLimitMb * 1024) o.kind = "over the memory limit";
  return o;
}

std::string FirstLine(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line.substr(0, 160);
}

std::vector<Model> LoadModels(const fs::path& tmp) {
  std::vector<Model> models;
  for (const char* name : kTestModels) models.push_back({name, Slurp(fs::path(QPM_NL_DIR) / name)});
  const fs::path corpus(QPM_CORPUS_DIR);
  if (fs::is_directory(corpus)) {
    for (const char* name : kCorpusModels) {
      if (fs::exists(corpus / name)) models.push_back({name, Slurp(corpus / name)});
    }
  } else {
    BOOST_TEST_MESSAGE("no corpus at " << corpus << ": fuzzing the test/nl models only");
  }
  const std::size_t text_models = models.size();
  for (std::size_t i = 0; i < text_models; ++i) {
    const fs::path text = tmp / ("text_" + models[i].name);
    std::ofstream(text, std::ios::binary) << models[i].bytes;
    const fs::path stub = tmp / ("binary_" + models[i].name.substr(0, models[i].name.size() - 3));
    BOOST_TEST_REQUIRE(qpm_test::WriteBinaryNl(text.string(), stub.string()), models[i].name);
    models.push_back({"binary " + models[i].name, Slurp(stub.string() + ".nl")});
  }
  return models;
}

}  // namespace

BOOST_AUTO_TEST_CASE(EveryDamagedModelIsReadOrRefusedWithAMessageWithinLimits) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path tmp = fs::temp_directory_path() / ("qpm_ampl_fuzz_" + std::to_string(getpid()));
  fs::create_directories(tmp);
  const std::vector<Model> models = LoadModels(tmp);

  // The unchanged models read.
  for (const Model& m : models) {
    std::ofstream(tmp / "case.nl", std::ios::binary) << m.bytes;
    const Outcome o = RunCase(tmp / "case.nl", tmp / "case.err");
    BOOST_TEST(o.kind == "read", m.name << ": " << o.kind << ": " << FirstLine(tmp / "case.err"));
  }

  std::vector<Case> cases;
  CaseMaker maker(&cases);
  for (const Model& m : models) maker.AddAll(m);

  std::map<std::string, int> counts;
  long max_rss_kb = 0;
  double max_seconds = 0.0;
  int failures = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    std::ofstream(tmp / "case.nl", std::ios::binary | std::ios::trunc) << c.bytes;
    const Outcome o = RunCase(tmp / "case.nl", tmp / "case.err");
    ++counts[o.kind];
    max_rss_kb = std::max(max_rss_kb, o.rss_over_parent_kb);
    max_seconds = std::max(max_seconds, o.seconds);
    if (!o.ok()) {
      const fs::path keep = tmp / ("failed_" + std::to_string(k) + ".nl");
      fs::copy_file(tmp / "case.nl", keep, fs::copy_options::overwrite_existing);
      if (++failures <= 30) {
        BOOST_ERROR("case " << k << " (" << c.model << ", " << c.what << "): " << o.kind
                            << "; kept as " << keep << "; stderr: " << FirstLine(tmp / "case.err"));
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream summary;
  summary << "ampl fuzz: " << cases.size() << " cases from " << models.size() << " models (seed "
          << kSeed << (QPM_UNDER_ASAN ? ", ASan" : "") << "):";
  for (const auto& [kind, n] : counts) summary << " " << n << " " << kind << ";";
  summary << " " << failures << " failed; peak child RSS " << max_rss_kb / 1024 << " MB over the parent (limit "
          << kRssLimitMb << "), slowest case " << static_cast<int>(1000 * max_seconds) << " ms (limit "
          << kWallSeconds << " s); " << static_cast<int>(seconds) << " s in all";
  std::printf("%s\n", summary.str().c_str());
  BOOST_TEST(failures == 0);
  if (failures == 0) {
    fs::remove_all(tmp);
  } else {
    std::printf("failed cases kept in %s\n", tmp.c_str());
  }
}
