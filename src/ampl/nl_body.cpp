#include "nl_body.hpp"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <arith.h>  // Arith_Kind_ASL: the byte order this ASL was built for

namespace qpm {
namespace ampl_internal {

namespace {

// Operand counts of the operators AMPL writes ("o<k>"), from the ASL's
// op_type table: 1 unary, 2 binary, 3 min/max list, 4 piecewise-linear,
// 5 if-then-else, 6 sum/and/or list, 11 count list; 0 is no operator.
// Codes from 76 on are the ASL's internal forms, never in a file.
constexpr int kOpCodes = 76;
constexpr signed char kOpType[kOpCodes] = {
    2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 3, 3, 1, 1, 1, 1, 0, 0, 0,    // 0-19
    2, 2, 2, 2, 2, 0, 0, 0, 2, 2, 2, 0, 0, 0, 1, 5, 0, 1, 1, 1,    // 20-39
    1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 6, 2, 2, 2, 2, 11,   // 40-59
    11, 11, 2, 2, 4, 5, 2, 2, 2, 2, 6, 6, 5, 2, 11, 11};           // 60-75
constexpr long long kBytesPerItem = 2;  // least size of a term, argument, character pair
constexpr int kSuffixKinds = 8;         // S segment kinds 0-7 (mask 3, real 4)
constexpr int kMaxSuffixName = 127;     // the ASL reads names with %127s
constexpr std::size_t kAslLineChars = 79;

enum class Field { kInt, kLong, kShort, kDouble, kString };

class BodyChecker {
 public:
  BodyChecker(FILE* f, const NlHeader& h, const std::string& file, std::string* error)
      : f_(f), h_(h), file_(file), error_(error),
        n_var_(h.n_var), n_con_(h.n_con), n_common_(h.n_common),
        swap_(h.binary && h.arith == 3 - Arith_Kind_ASL),
        pos_(h.header_bytes),
        con_seen_(h.n_con, 0), obj_seen_(h.n_obj, 0), common_seen_(h.n_common, 0),
        func_seen_(h.nfunc, 0), jac_row_seen_(h.n_con, 0) {}

  bool Check();

 private:
  bool Fail(const std::string& what) {
    *error_ = file_ + ": " + what + " (byte " + std::to_string(pos_) + ")";
    return false;
  }
  long long Remaining() const { return h_.file_bytes - pos_; }
  bool Fits(long long count, const char* what);

  // Input as the ASL sees it: edag_peek reads one character; each xscanf
  // call then reads the rest of that line (text) or raw fields (binary).
  int Peek();
  bool Scan(std::initializer_list<Field> fields);
  bool ReadLine();
  bool TextField(Field field, long long* i, std::string* s);
  bool BinaryField(Field field, long long* i, std::string* s);
  bool ReadBytes(void* out, std::size_t n, bool swap);
  int Get();
  long long I(std::size_t k) const { return ints_[k]; }

  bool Segment(int c);
  bool Bounds(long long count, bool constraints);
  bool ColumnStarts(int c);
  bool Gradient(bool jacobian);
  bool Suffix();
  bool Pairs(long long count, long long range, const char* what);
  bool Expression();
  bool Node(int c, long long* operands);
  bool Operator(long long* operands);
  bool PiecewiseValues(long long count);
  bool Hol();
  bool Complete();

  FILE* f_;
  const NlHeader& h_;
  const std::string& file_;
  std::string* error_;
  const long long n_var_, n_con_, n_common_;
  const bool swap_;           // binary body written with the other byte order
  long long pos_;             // bytes read so far
  bool after_peek_ = false;   // text: the current line's first character was peeked
  std::string line_;          // text: the line being scanned
  std::size_t at_ = 0;        // text: scan position in line_
  std::vector<long long> ints_;
  std::vector<char> con_seen_, obj_seen_, common_seen_, func_seen_, jac_row_seen_;
  bool bounds_seen_[2] = {false, false};  // b, r
  std::vector<long long> column_starts_;  // from the k segment
  std::vector<long long> column_counts_;  // J entries per variable
  long long jacobian_entries_ = 0;
};

bool BodyChecker::Fits(long long count, const char* what) {
  if (count >= 0 && count <= Remaining() / kBytesPerItem) return true;
  return Fail(std::to_string(count) + " " + what + ", but " + std::to_string(Remaining()) +
              " bytes remain");
}

int BodyChecker::Peek() {
  after_peek_ = true;
  return Get();
}

// read_line: the rest of the line (79 characters of a whole line, 78 after
// a peek), ended by '\n' or '\r'; the end of the file ends the line too
// early for the ASL.
bool BodyChecker::ReadLine() {
  const std::size_t keep = after_peek_ ? kAslLineChars - 1 : kAslLineChars;
  after_peek_ = false;
  line_.clear();
  at_ = 0;
  for (;;) {
    const int c = Get();
    if (c == EOF) return Fail("file ends inside a line");
    if (c == '\n') return true;
    if (c == '\r') {
      int d;
      while ((d = Get()) == '\r') {}
      if (d != EOF && d != '\n') {
        std::ungetc(d, f_);
        --pos_;
      }
      return true;
    }
    if (line_.size() < keep) line_.push_back(static_cast<char>(c));
  }
}

bool BodyChecker::Scan(std::initializer_list<Field> fields) {
  ints_.clear();
  if (!h_.binary && !ReadLine()) return false;
  after_peek_ = false;
  for (Field field : fields) {
    long long i = 0;
    std::string s;
    const bool ok = h_.binary ? BinaryField(field, &i, &s) : TextField(field, &i, &s);
    if (!ok) return Fail("malformed or missing number");
    ints_.push_back(i);
  }
  return true;
}

// ascanf: blanks skipped; "%d" and "%ld" are an optional '-' and digits
// (Ladvance), "%lf" is strtod's, "%127s" takes the rest of the line. It has
// no "%hd": the ASL exits on a short ('s') in a text body.
bool BodyChecker::TextField(Field field, long long* i, std::string* s) {
  const char* p = line_.c_str() + at_;
  while (*p == ' ') ++p;
  switch (field) {
    case Field::kInt:
    case Field::kLong: {
      const bool negative = *p == '-';
      if (negative) ++p;
      if (*p < '0' || *p > '9') return false;
      long long v = 0;
      for (; *p >= '0' && *p <= '9'; ++p) v = v > LLONG_MAX / 10 - 10 ? LLONG_MAX : 10 * v + (*p - '0');
      if (v > INT_MAX) return false;  // the ASL would wrap it
      *i = negative ? -v : v;
      break;
    }
    case Field::kDouble: {
      char* end = nullptr;
      std::strtod(p, &end);
      if (end == p) return false;
      p = end;
      break;
    }
    case Field::kString:
      *s = std::string(p).substr(0, kMaxSuffixName - 1);
      p += std::strlen(p);
      break;
    case Field::kShort:
      return false;
  }
  at_ = static_cast<std::size_t>(p - line_.c_str());
  return true;
}

int BodyChecker::Get() {
  const int c = std::getc(f_);
  if (c != EOF) ++pos_;
  return c;
}

// n bytes; a number written with the other byte order is reversed.
bool BodyChecker::ReadBytes(void* out, std::size_t n, bool swap) {
  if (static_cast<long long>(n) > Remaining()) return false;
  if (std::fread(out, 1, n, f_) != n) return false;
  pos_ += static_cast<long long>(n);
  if (swap) {
    unsigned char* b = static_cast<unsigned char*>(out);
    for (std::size_t k = 0; k < n / 2; ++k) std::swap(b[k], b[n - 1 - k]);
  }
  return true;
}

// bscanf: "%d" and "%ld" are 4-byte ints (the ASL's Long is an int), "%hd"
// a short, "%lf" a double, "%127s" a 4-byte length and that many bytes.
bool BodyChecker::BinaryField(Field field, long long* i, std::string* s) {
  after_peek_ = false;
  switch (field) {
    case Field::kInt:
    case Field::kLong: {
      std::int32_t v;
      if (!ReadBytes(&v, sizeof v, swap_)) return false;
      *i = v;
      return true;
    }
    case Field::kShort: {
      std::int16_t v;
      if (!ReadBytes(&v, sizeof v, swap_)) return false;
      *i = v;
      return true;
    }
    case Field::kDouble: {
      double v;
      return ReadBytes(&v, sizeof v, swap_);
    }
    case Field::kString: {
      std::int32_t len;
      if (!ReadBytes(&len, sizeof len, swap_) || len < 0 || len >= kMaxSuffixName) return false;
      s->resize(static_cast<std::size_t>(len));
      return ReadBytes(&(*s)[0], s->size(), false);
    }
  }
  return false;
}

bool BodyChecker::Check() {
  if (h_.n_lcon > 0) return Fail("logical constraints (CLP extensions) are not supported");
  if (std::fseek(f_, h_.header_bytes, SEEK_SET) != 0) return Fail("cannot seek past the header");
  for (;;) {
    const int c = Peek();
    if (c == EOF) return Complete();
    if (!Segment(c)) return false;
  }
}

bool BodyChecker::Segment(int c) {
  switch (c) {
    case 'C':  // C<i>, then the constraint's nonlinear part
      if (!Scan({Field::kInt})) return false;
      if (I(0) < 0 || I(0) >= n_con_) return Fail("bad C segment");
      con_seen_[I(0)] = 1;
      return Expression();
    case 'O':  // O<i> <sense>, then the objective's nonlinear part
      if (!Scan({Field::kInt, Field::kInt})) return false;
      if (I(0) < 0 || I(0) >= h_.n_obj) return Fail("bad O segment");
      obj_seen_[I(0)] = 1;
      return Expression();
    case 'V': {  // V<k> <linear terms> <kind>: common expression k - n_var
      if (!Scan({Field::kInt, Field::kInt, Field::kInt})) return false;
      const long long k = I(0) - n_var_, linear = I(1);
      if (k < 0 || k >= n_common_) return Fail("bad V segment");
      common_seen_[k] = 1;
      if (!Fits(linear, "linear terms")) return false;
      return Pairs(linear, n_var_ + n_common_, "linear term") && Expression();
    }
    case 'F':  // F<i> <type> <arguments> <name>: an imported function
      if (!Scan({Field::kInt, Field::kInt, Field::kInt, Field::kString})) return false;
      if (I(0) < 0 || I(0) >= h_.nfunc) return Fail("bad F segment");
      func_seen_[I(0)] = 1;
      return true;
    case 'G':
    case 'J':
      return Gradient(c == 'J');
    case 'k':
    case 'K':
      return ColumnStarts(c);
    case 'b':
    case 'r':
      return Bounds(c == 'b' ? n_var_ : n_con_, c == 'r');
    case 'x':  // x<count>, then (variable, start value) pairs
      if (!Scan({Field::kInt})) return false;
      if (I(0) < 0 || I(0) > n_var_) return Fail("bad x segment count");
      return Pairs(I(0), n_var_, "start value");
    case 'd':  // d<count>, then (constraint, dual start) pairs
      if (!Scan({Field::kInt})) return false;
      if (I(0) < 0 || I(0) > n_con_) return Fail("bad d segment count");
      return Pairs(I(0), n_con_, "dual start value");
    case 'S':
      return Suffix();
    default:
      return Fail(std::string("unknown segment '") + static_cast<char>(c) + "'");
  }
}

// b or r: one line per variable or constraint, a type digit and its values.
// (A repeated C, O, V, F, b or r segment replaces the earlier one, in the
// ASL as here; a repeated J or k segment is refused.)
bool BodyChecker::Bounds(long long count, bool constraints) {
  bounds_seen_[constraints ? 1 : 0] = true;
  if (!Scan({})) return false;  // the rest of the segment's line
  for (long long i = 0; i < count; ++i) {
    bool ok = false;
    switch (Peek()) {
      case '0': ok = Scan({Field::kDouble, Field::kDouble}); break;
      case '1': case '2': case '4': ok = Scan({Field::kDouble}); break;
      case '3': ok = Scan({}); break;
      case '5':  // complementarity: only for constraints of a model that has them
        ok = constraints && h_.n_cc + h_.nlcc > 0 && Scan({Field::kInt, Field::kInt}) &&
             I(1) > 0 && I(1) <= n_var_;
        break;
      default: break;
    }
    if (!ok) return Fail("bad bound " + std::to_string(i) + " of the " + (constraints ? "r" : "b") + " segment");
  }
  return true;
}

// k<n_var - 1>, then the cumulative Jacobian column counts (K: the counts).
bool BodyChecker::ColumnStarts(int c) {
  if (!column_starts_.empty()) return Fail("repeated k segment");
  if (!Scan({Field::kInt})) return false;
  if (I(0) != n_var_ - 1) return Fail("k segment for " + std::to_string(I(0) + 1) + " variables");
  column_starts_.assign(n_var_ + 1, 0);
  long long start = 0;
  for (long long j = 1; j < n_var_; ++j) {
    if (!Scan({Field::kInt})) return false;
    const long long next = c == 'K' ? start + I(0) : I(0);
    if (next < start || next > h_.nzc) return Fail("bad Jacobian column start " + std::to_string(I(0)));
    column_starts_[j] = start = next;
  }
  column_starts_[n_var_] = h_.nzc;
  return true;
}

// G<objective> <count> or J<constraint> <count>, then (variable, coefficient)
// pairs; a J before any k segment gives (variable, position, coefficient).
bool BodyChecker::Gradient(bool jacobian) {
  if (!Scan({Field::kInt, Field::kInt})) return false;
  const long long row = I(0), count = I(1);
  const long long rows = jacobian ? n_con_ : h_.n_obj;
  if (row < 0 || row >= rows || count <= 0 || count > n_var_) {
    return Fail(std::string("bad ") + (jacobian ? "J" : "G") + " segment");
  }
  if (jacobian) {
    if (jac_row_seen_[row]) return Fail("repeated J segment");
    jac_row_seen_[row] = 1;
    if (column_counts_.empty()) column_counts_.assign(n_var_, 0);
  }
  const bool positions = jacobian && column_starts_.empty();
  for (long long k = 0; k < count; ++k) {
    const bool ok = positions ? Scan({Field::kInt, Field::kInt, Field::kDouble})
                              : Scan({Field::kInt, Field::kDouble});
    if (!ok) return false;
    if (I(0) < 0 || I(0) >= n_var_) return Fail("gradient entry for variable " + std::to_string(I(0)));
    if (positions && (I(1) < 0 || I(1) >= h_.nzc)) return Fail("Jacobian position " + std::to_string(I(1)));
    if (jacobian) {
      ++column_counts_[I(0)];
      ++jacobian_entries_;
    }
  }
  return true;
}

// S<kind> <count> <name>, then (index, value) pairs.
bool BodyChecker::Suffix() {
  if (!Scan({Field::kInt, Field::kInt, Field::kString})) return false;
  const long long kind = I(0), count = I(1);
  if (kind < 0 || kind >= kSuffixKinds || count <= 0) return Fail("bad S segment");
  const long long sizes[4] = {n_var_, n_con_, h_.n_obj, 1};
  const long long n = sizes[kind & 3];
  if (count > n) return Fail("S segment with " + std::to_string(count) + " values for " + std::to_string(n));
  for (long long k = 0; k < count; ++k) {
    const bool ok = (kind & 4) ? Scan({Field::kInt, Field::kDouble}) : Scan({Field::kInt, Field::kInt});
    if (!ok) return false;
    if (I(0) < 0 || I(0) >= n) return Fail("suffix value for index " + std::to_string(I(0)));
  }
  return true;
}

bool BodyChecker::Pairs(long long count, long long range, const char* what) {
  for (long long k = 0; k < count; ++k) {
    if (!Scan({Field::kInt, Field::kDouble})) return false;
    if (I(0) < 0 || I(0) >= range) return Fail(std::string(what) + " for index " + std::to_string(I(0)));
  }
  return true;
}

// One expression, without recursion: `open` holds, per unfinished node, how
// many operands it still needs.
bool BodyChecker::Expression() {
  std::vector<long long> open;
  long long operands = 0;
  do {
    if (!Node(Peek(), &operands)) return false;
    if (operands > 0) {
      if (static_cast<int>(open.size()) >= kMaxNlDepth) {
        return Fail("expression nested deeper than " + std::to_string(kMaxNlDepth));
      }
      open.push_back(operands);
      continue;
    }
    while (!open.empty() && --open.back() == 0) open.pop_back();
  } while (!open.empty());
  return true;
}

// One node: a number (n, l, s), variable (v), string (h), function call (f)
// or operator (o). Sets how many operand expressions follow it.
bool BodyChecker::Node(int c, long long* operands) {
  *operands = 0;
  switch (c) {
    case 'n':
      return Scan({Field::kDouble});
    case 'l':
      return Scan({Field::kLong});
    case 's':
      if (!h_.binary) return Fail("short number 's' in a text .nl (the ASL cannot read it)");
      return Scan({Field::kShort});
    case 'v':
      if (!Scan({Field::kInt})) return false;
      if (I(0) < 0 || I(0) >= n_var_ + n_common_) return Fail("variable " + std::to_string(I(0)));
      return true;
    case 'h':
      return Hol();
    case 'f':
      if (!Scan({Field::kInt, Field::kInt})) return false;
      if (I(0) < 0 || I(0) >= h_.nfunc || !func_seen_[I(0)]) {
        return Fail("call of undeclared function " + std::to_string(I(0)));
      }
      *operands = I(1);
      return Fits(I(1), "function arguments");
    case 'o':
      return Operator(operands);
    case EOF:
      return Fail("file ends inside an expression");
    default:
      return Fail(std::string("unknown expression node '") + static_cast<char>(c) + "'");
  }
}

bool BodyChecker::Operator(long long* operands) {
  if (!Scan({Field::kInt})) return false;
  const long long op = I(0);
  const int type = op >= 0 && op < kOpCodes ? kOpType[op] : 0;
  switch (type) {
    case 1: *operands = 1; return true;
    case 2: *operands = 2; return true;
    case 5: *operands = 3; return true;
    case 3: case 6: case 11: {
      if (!Scan({Field::kInt})) return false;
      const long long least = type == 6 ? 3 : 1;
      if (I(0) < least) return Fail("operator " + std::to_string(op) + " with " + std::to_string(I(0)) + " operands");
      *operands = I(0);
      return Fits(I(0), "operands");
    }
    case 4: {  // piecewise-linear: <pieces>, 2 pieces - 1 slopes and breakpoints, then x
      if (!Scan({Field::kInt})) return false;
      if (I(0) < 2 || !Fits(2 * I(0) - 1, "slopes and breakpoints")) return Fail("bad piecewise-linear term");
      *operands = 1;
      return PiecewiseValues(2 * I(0) - 1);
    }
    default:
      return Fail("unknown operator " + std::to_string(op));
  }
}

bool BodyChecker::PiecewiseValues(long long count) {
  for (long long k = 0; k < count; ++k) {
    const int c = Peek();
    bool ok = false;
    if (c == 'n') ok = Scan({Field::kDouble});
    else if (c == 'l') ok = Scan({Field::kLong});
    else if (c == 's' && h_.binary) ok = Scan({Field::kShort});
    if (!ok) return Fail("bad piecewise-linear value");
  }
  return true;
}

// A string: text "h<length>:<characters>\n", binary a 4-byte length and bytes.
bool BodyChecker::Hol() {
  after_peek_ = false;
  long long length = 0;
  if (h_.binary) {
    std::int32_t len;
    if (!ReadBytes(&len, sizeof len, swap_)) return Fail("file ends inside a string");
    length = len;
    if (length <= 0 || length > Remaining()) return Fail("bad string length " + std::to_string(length));
    if (std::fseek(f_, length, SEEK_CUR) != 0) return Fail("file ends inside a string");
    pos_ += length;
    return true;
  }
  int c = Get();
  if (c < '1' || c > '9') return Fail("bad string length");
  for (; c >= '0' && c <= '9' && length <= Remaining(); c = Get()) length = 10 * length + (c - '0');
  if (c != ':' || length + 1 > Remaining()) return Fail("bad string length " + std::to_string(length));
  if (std::fseek(f_, length, SEEK_CUR) != 0) return Fail("file ends inside a string");
  pos_ += length;
  if (Get() != '\n') return Fail("string not followed by a line end");
  return true;
}

// At the end: every declared item has its segment, the Jacobian agrees.
bool BodyChecker::Complete() {
  for (long long i = 0; i < n_con_; ++i) {
    if (!con_seen_[i]) return Fail("no C segment for constraint " + std::to_string(i));
  }
  for (long long i = 0; i < h_.n_obj; ++i) {
    if (!obj_seen_[i]) return Fail("no O segment for objective " + std::to_string(i));
  }
  for (long long i = 0; i < n_common_; ++i) {
    if (!common_seen_[i]) return Fail("no V segment for common expression " + std::to_string(i));
  }
  if (!bounds_seen_[0]) return Fail("no b segment (variable bounds)");
  if (n_con_ > 0 && !bounds_seen_[1]) return Fail("no r segment (constraint bounds)");
  if (jacobian_entries_ != h_.nzc) {
    return Fail("header claims " + std::to_string(h_.nzc) + " Jacobian nonzeros, the J segments hold " +
                std::to_string(jacobian_entries_));
  }
  if (!column_starts_.empty()) {
    for (long long j = 0; j < n_var_; ++j) {
      const long long in_k = column_starts_[j + 1] - column_starts_[j];
      const long long in_j = column_counts_.empty() ? 0 : column_counts_[j];
      if (in_k != in_j) {
        return Fail("k segment gives variable " + std::to_string(j) + " " + std::to_string(in_k) +
                    " Jacobian entries, the J segments " + std::to_string(in_j));
      }
    }
  }
  return true;
}

}  // namespace

bool CheckNlBody(const std::string& file, const NlHeader& header, std::string* error) {
  FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + file;
    return false;
  }
  BodyChecker checker(f, header, file, error);
  const bool ok = checker.Check();
  std::fclose(f);
  return ok;
}

}  // namespace ampl_internal
}  // namespace qpm
