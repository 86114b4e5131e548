#include "nl_header.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>

#include <arith.h>  // Arith_Kind_ASL: the byte order this ASL was built for

namespace qpm {
namespace ampl_internal {

namespace {

constexpr int kHeaderLines = 10;
constexpr int kMaxInts = 6;              // most integers jac0dim reads from one line
constexpr std::size_t kAslLineChars = 79;  // read_line keeps 79 characters (rl_buf[80])
constexpr long long kMaxAmplOptions = 9;   // jac0dim exits beyond "g9"
constexpr long long kSaturated = 999999999999999999;  // 1e18 - 1: larger values read as this

// A header line as the ASL's read_line leaves it: at most 79 characters,
// ended by '\n', '\r', "\r\n" or "\r\r\n". False at end of file, where
// read_line (can_end is off in jac0dim) ends the process.
bool ReadLine(FILE* f, std::string* line) {
  line->clear();
  for (;;) {
    const int c = std::getc(f);
    if (c == EOF) return false;
    if (c == '\n') return true;
    if (c == '\r') {  // the ASL's eatcr
      int d;
      while ((d = std::getc(f)) == '\r') {}
      if (d != EOF && d != '\n') std::ungetc(d, f);
      return true;
    }
    if (line->size() < kAslLineChars) line->push_back(static_cast<char>(c));
  }
}

// One integer as the ASL's Sscanf reads "%d" (strtol: optional sign) or,
// with `wide`, "%D" (optional '-', digits). Saturates at +-kSaturated, so
// that sums of a line's values cannot overflow.
bool ScanInt(const char** s, bool wide, long long* value) {
  const char* p = *s;
  bool negative = false;
  if (*p == '-' || (!wide && *p == '+')) negative = *p++ == '-';
  if (*p < '0' || *p > '9') return false;
  long long v = 0;
  for (; *p >= '0' && *p <= '9'; ++p) {
    v = v > (kSaturated - 9) / 10 ? kSaturated : 10 * v + (*p - '0');
  }
  *value = negative ? -v : v;
  *s = p;
  return true;
}

// The integers at the start of `line`, as Sscanf(line, " %d %d ...") counts
// them: each is preceded by any characters <= ' ' (char is signed, so bytes
// >= 0x80 are skipped too); a NUL ends the line.
int ScanInts(const std::string& line, bool wide, long long* values) {
  const char* s = line.c_str();
  int n = 0;
  while (n < kMaxInts) {
    while (*s != '\0' && static_cast<signed char>(*s) <= ' ') ++s;
    if (!ScanInt(&s, wide, &values[n])) break;
    ++n;
  }
  return n;
}

// Line 1: "g<k> <k options>" (text body) or "b<k> ..." (binary body).
bool ReadFirstLine(const std::string& line, NlHeader* h) {
  if (line.empty() || (line[0] != 'g' && line[0] != 'b')) return false;
  h->binary = line[0] == 'b';
  const char* s = line.c_str() + 1;
  long long k = 0;
  return ScanInt(&s, false, &k) && k >= 0 && k <= kMaxAmplOptions;
}

// Whether Check() compares the count at line i + 1, place j, with the file size.
bool SizeChecked(int i, int j) {
  return (i == 1 && j != 3 && j != 4) || (i == 5 && j == 1) || i == 7 || i == 9;
}

class HeaderChecker {
 public:
  HeaderChecker(const std::string& file, NlHeader* h, std::string* error)
      : file_(file), h_(h), error_(error) {}

  bool Read(FILE* f);
  bool Check();

 private:
  bool Fail(const std::string& what) {
    *error_ = file_ + ": " + what;
    return false;
  }
  bool NotNegative(long long v, const char* name);
  bool FitsInt(long long v, const char* name);
  bool Subset(long long part, const char* part_name, long long whole, const char* whole_name);
  bool Holds(long long count, const char* name, long long bytes_each);
  void Assign(long long v[kHeaderLines][kMaxInts]);

  const std::string& file_;
  NlHeader* h_;
  std::string* error_;
  long long body_bytes_ = 0;
};

bool HeaderChecker::NotNegative(long long v, const char* name) {
  return v >= 0 || Fail("header gives " + std::to_string(v) + " " + name);
}

bool HeaderChecker::FitsInt(long long v, const char* name) {
  return v <= INT_MAX ||
         Fail("header claims " + std::to_string(v) + " " + name + ", more than the reader's limit " +
              std::to_string(INT_MAX));
}

bool HeaderChecker::Subset(long long part, const char* part_name, long long whole,
                           const char* whole_name) {
  return part <= whole || Fail("header claims " + std::to_string(part) + " " + part_name +
                               " but only " + std::to_string(whole) + " " + whole_name);
}

// count * bytes_each <= body bytes, without overflow.
bool HeaderChecker::Holds(long long count, const char* name, long long bytes_each) {
  if (count <= body_bytes_ / bytes_each) return true;
  return Fail("header claims " + std::to_string(count) + " " + name + ", but the file's " +
              std::to_string(body_bytes_) + " bytes after the header hold at most " +
              std::to_string(body_bytes_ / bytes_each) + " (" + std::to_string(bytes_each) +
              " bytes each in a " + (h_->binary ? "binary" : "text") + " .nl)");
}

void HeaderChecker::Assign(long long v[kHeaderLines][kMaxInts]) {
  h_->n_var = v[1][0]; h_->n_con = v[1][1]; h_->n_obj = v[1][2];
  h_->n_ranges = v[1][3]; h_->n_eqn = v[1][4]; h_->n_lcon = v[1][5];
  h_->nlc = v[2][0]; h_->nlo = v[2][1]; h_->n_cc = v[2][2]; h_->nlcc = v[2][3];
  h_->nlnc = v[3][0]; h_->lnc = v[3][1];
  h_->nlvc = v[4][0]; h_->nlvo = v[4][1]; h_->nlvb = v[4][2];
  h_->nwv = v[5][0]; h_->nfunc = v[5][1]; h_->arith = v[5][2];
  h_->nbv = v[6][0]; h_->niv = v[6][1]; h_->nlvi = v[6][2] + v[6][3] + v[6][4];
  h_->nzc = v[7][0]; h_->nzo = v[7][1];
  h_->n_common = v[9][0] + v[9][1] + v[9][2] + v[9][3] + v[9][4];
}

// Parses the ten lines; fails where jac0dim would end the process.
bool HeaderChecker::Read(FILE* f) {
  // Integers jac0dim needs on lines 2-10 (line 7 needs 5 when line 5 has 3).
  static const int kMinInts[kHeaderLines] = {0, 3, 2, 2, 2, 2, 2, 2, 2, 5};
  long long v[kHeaderLines][kMaxInts] = {};
  int count[kHeaderLines] = {};
  std::string line;
  for (int i = 0; i < kHeaderLines; ++i) {
    if (!ReadLine(f, &line)) {
      if (i == 0) break;  // reported below as "not an .nl file"
      return Fail("file ends in header line " + std::to_string(i + 1) +
                  " (an .nl header has " + std::to_string(kHeaderLines) + " lines)");
    }
    if (i == 0) {
      if (!ReadFirstLine(line, h_)) break;
      continue;
    }
    count[i] = ScanInts(line, i == 7, v[i]);  // line 8 is read with "%D"
    const int needed = (i == 6 && count[4] >= 3) ? 5 : kMinInts[i];
    if (count[i] < needed) {
      return Fail("header line " + std::to_string(i + 1) + " has " + std::to_string(count[i]) +
                  " integers, needs " + std::to_string(needed));
    }
    for (int j = 0; j < count[i]; ++j) {
      if (v[i][j] < INT_MIN || v[i][j] > INT_MAX) {
        if (v[i][j] > 0 && SizeChecked(i, j)) continue;  // Check() names it and its limit
        return Fail("header line " + std::to_string(i + 1) + ": " + std::to_string(v[i][j]) +
                    " does not fit an int");
      }
    }
  }
  if (count[1] == 0) {
    *error_ = file_ + " is not an AMPL .nl file (first line must start with g<k> or b<k>)";
    return false;
  }
  Assign(v);
  if (count[5] >= 3 && h_->arith != 0 && h_->arith != Arith_Kind_ASL &&
      h_->arith != 3 - Arith_Kind_ASL) {
    return Fail("header line 6: unknown arithmetic kind " + std::to_string(h_->arith));
  }
  h_->header_bytes = std::ftell(f);
  return true;
}

bool HeaderChecker::Check() {
  const NlHeader& h = *h_;
  body_bytes_ = h.file_bytes - h.header_bytes;
  const NlItemBytes& b = h.binary ? kBinaryItemBytes : kTextItemBytes;
  if (h.n_var <= 0) return Fail("header claims " + std::to_string(h.n_var) + " variables (needs at least 1)");
  const bool not_negative =
      NotNegative(h.n_con, "constraints") && NotNegative(h.n_obj, "objectives") &&
      NotNegative(h.n_ranges, "ranges") && NotNegative(h.n_eqn, "equality constraints") &&
      NotNegative(h.n_lcon, "logical constraints") && NotNegative(h.nlc, "nonlinear constraints") &&
      NotNegative(h.nlo, "nonlinear objectives") && NotNegative(h.n_cc, "complementarities") &&
      NotNegative(h.nlcc, "nonlinear complementarities") &&
      NotNegative(h.nlnc, "nonlinear network constraints") &&
      NotNegative(h.lnc, "linear network constraints") &&
      NotNegative(h.nlvc, "nonlinear variables in constraints") &&
      NotNegative(h.nlvo, "nonlinear variables in objectives") &&
      NotNegative(h.nlvb, "nonlinear variables in both") &&
      NotNegative(h.nwv, "network variables") && NotNegative(h.nfunc, "functions") &&
      NotNegative(h.nbv, "binary variables") && NotNegative(h.niv, "integer variables") &&
      NotNegative(h.nlvi, "nonlinear integer variables") &&
      NotNegative(h.nzc, "Jacobian nonzeros") && NotNegative(h.nzo, "gradient nonzeros") &&
      NotNegative(h.n_common, "common expressions");
  if (!not_negative) return false;
  // Each count alone, then all together: what the body must hold.
  const bool each_fits =
      Holds(h.n_var, "variables", b.bound) && Holds(h.n_con, "constraints", b.bound + b.segment) &&
      Holds(h.n_obj, "objectives", b.segment) && Holds(h.n_lcon, "logical constraints", b.segment) &&
      Holds(h.nfunc, "functions", b.segment) && Holds(h.n_common, "common expressions", b.segment) &&
      Holds(h.nzc, "Jacobian nonzeros", b.nonzero) && Holds(h.nzo, "gradient nonzeros", b.nonzero);
  if (!each_fits) return false;
  // Each term is now at most body_bytes_: the sum cannot overflow.
  const long long needed = (h.n_var + h.n_con) * b.bound + (h.nzc + h.nzo) * b.nonzero +
                           (h.n_con + h.n_obj + h.n_lcon + h.nfunc + h.n_common) * b.segment;
  if (needed > body_bytes_) {
    return Fail("header's counts need at least " + std::to_string(needed) +
                " bytes after the header, the file has " + std::to_string(body_bytes_));
  }
  const bool ints = FitsInt(h.n_var, "variables") && FitsInt(h.n_con, "constraints") &&
                    FitsInt(h.nzc, "Jacobian nonzeros") && FitsInt(h.nzo, "gradient nonzeros") &&
                    FitsInt(h.n_common, "common expressions") && FitsInt(h.nlvi, "integer variables");
  if (!ints) return false;
  return Subset(h.nlc, "nonlinear constraints", h.n_con, "constraints") &&
         Subset(h.nlo, "nonlinear objectives", h.n_obj, "objectives") &&
         Subset(h.n_ranges + h.n_eqn, "ranges and equalities", h.n_con, "constraints") &&
         Subset(h.n_cc + h.nlcc, "complementarities", h.n_con, "constraints") &&
         Subset(h.nlnc + h.lnc, "network constraints", h.n_con, "constraints") &&
         Subset(h.nlvc, "nonlinear variables in constraints", h.n_var, "variables") &&
         Subset(h.nlvo, "nonlinear variables in objectives", h.n_var, "variables") &&
         Subset(h.nlvb, "nonlinear variables in both", std::min(h.nlvc, h.nlvo),
                "in constraints or objectives") &&
         Subset(h.nwv, "network variables", h.n_var, "variables") &&
         Subset(h.nbv + h.niv + h.nlvi, "integer variables", h.n_var, "variables");
}

}  // namespace

bool ReadNlHeader(const std::string& file, NlHeader* header, std::string* error) {
  *header = NlHeader();
  FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + file;
    return false;
  }
  HeaderChecker checker(file, header, error);
  bool ok = checker.Read(f);
  if (ok && std::fseek(f, 0, SEEK_END) == 0) header->file_bytes = std::ftell(f);
  std::fclose(f);
  return ok && checker.Check();
}

}  // namespace ampl_internal
}  // namespace qpm
