// The reader in two passes: Scanner turns the text into the raw matrices
// (syntax: brackets, rows, numbers), then Build checks them and keeps what
// the AC-OPF needs (meaning: columns, bus numbers, statuses, costs).
#include "matpower_case.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace acopf {
namespace {

// MATPOWER's column numbers (1-based, as in its documentation and idx_*.m).
namespace bus_col { enum { kId = 1, kType, kPd, kQd, kGs, kBs, kVmax = 12, kVmin = 13 }; }
namespace gen_col { enum { kBus = 1, kQmax = 4, kQmin = 5, kStatus = 8, kPmax = 9, kPmin = 10 }; }
namespace branch_col {
enum { kFrom = 1, kTo, kR, kX, kB, kRateA, kTap = 9, kShift, kStatus, kAngmin, kAngmax };
}
namespace cost_col { enum { kModel = 1, kNcost = 4, kFirstCoefficient = 5 }; }

constexpr std::size_t kBusColumns = 13;     // version 2; results add columns 14-17
constexpr std::size_t kGenColumns = 10;     // PGLib writes 10; version 2 files may have 21
constexpr std::size_t kBranchColumns = 13;  // with ANGMIN, ANGMAX
constexpr int kPolynomialCost = 2;
constexpr int kPiecewiseLinearCost = 1;
constexpr int kMaxCostTerms = 3;            // c2 P^2 + c1 P + c0
constexpr int kIsolatedBus = 4;
constexpr int kReferenceBus = 3;

struct Matrix {
  int line = 0;                // line of `mpc.x = [`
  std::size_t columns = 0;
  std::vector<double> values;  // row-major
  std::vector<int> row_lines;  // line of each row
  std::size_t rows() const { return row_lines.size(); }
  double at(std::size_t row, int column) const { return values[row * columns + column - 1]; }
};

std::string_view Trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\f\v");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\f\v") - first + 1);
}

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string StemOf(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.size() > 2 && name.compare(name.size() - 2, 2, ".m") == 0) name.resize(name.size() - 2);
  return name;
}

// Turns the text into baseMVA, version and the four raw matrices.
class Scanner {
 public:
  Scanner(std::istream& in, std::string source, const MatpowerLimits& limits)
      : in_(in), source_(std::move(source)), limits_(limits) {}

  void ScanAll();

  [[noreturn]] void Fail(int line, const std::string& what) const {
    throw std::runtime_error(source_ + (line > 0 ? ":" + std::to_string(line) : "") + ": " + what);
  }

  std::map<std::string, Matrix> matrices;  // "bus", "gen", "branch", "gencost"
  double base_mva = 0.0;
  int base_mva_line = 0;

 private:
  bool NextLine();
  void ScanStatement(std::string_view text);
  void ScanMatrix(const std::string& name, std::string_view text);
  void ScanScalar(const std::string& name, std::string_view text);
  void ScanVersion(std::string_view text);
  void SkipStatement(std::string_view text);
  void EndRow(Matrix& m, std::vector<double>& row, int row_line, const std::string& name);
  double Number(const std::string& token, const std::string& name, std::size_t row,
                std::size_t column) const;

  std::istream& in_;
  std::string source_;
  MatpowerLimits limits_;
  std::string line_;  // the current line, comment removed
  int line_number_ = 0;
};

// Reads the next line into line_ without its `%` comment (a `%` inside a
// quoted string is text); refuses lines longer than the cap before storing them.
bool Scanner::NextLine() {
  line_.clear();
  std::streambuf* buffer = in_.rdbuf();
  int c = buffer->sbumpc();
  if (c == std::char_traits<char>::eof()) return false;
  ++line_number_;
  char quote = 0;
  bool comment = false;
  std::size_t length = 0;
  for (; c != std::char_traits<char>::eof() && c != '\n'; c = buffer->sbumpc()) {
    if (++length > limits_.max_line_length) {
      Fail(line_number_, "line longer than " + std::to_string(limits_.max_line_length) +
                             " characters");
    }
    if (comment) continue;
    if (quote == 0 && c == '%') {
      comment = true;
      continue;
    }
    if (c == '\'' || c == '"') quote = quote == 0 ? static_cast<char>(c) : (quote == c ? 0 : quote);
    line_.push_back(static_cast<char>(c));
  }
  return true;
}

void Scanner::ScanAll() {
  while (NextLine()) ScanStatement(Trim(line_));
}

// One statement beginning on the current line: `mpc.NAME = ...` for the
// fields we read, anything else skipped.
void Scanner::ScanStatement(std::string_view text) {
  if (text.substr(0, 4) != "mpc.") return SkipStatement(text);
  std::size_t end = 4;
  while (end < text.size() && IsIdentifierChar(text[end])) ++end;
  const std::string name(text.substr(4, end - 4));
  const std::string_view rest = Trim(text.substr(end));
  const bool ours = name == "bus" || name == "gen" || name == "branch" || name == "gencost" ||
                    name == "baseMVA" || name == "version";
  if (!ours) return SkipStatement(rest);
  if (rest.empty() || rest[0] != '=' || (rest.size() > 1 && rest[1] == '=')) {
    Fail(line_number_, "mpc." + name + " is not a plain assignment `mpc." + name + " = ...`");
  }
  const std::string_view value = Trim(rest.substr(1));
  if (name == "baseMVA") return ScanScalar(name, value);
  if (name == "version") return ScanVersion(value);
  ScanMatrix(name, value);
}

// Skips a statement, following brackets over lines (quoted text ignored).
void Scanner::SkipStatement(std::string_view text) {
  const int first_line = line_number_;
  int depth = 0;
  while (true) {
    char quote = 0;
    for (const char c : text) {
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[' || c == '{' || c == '(') {
        ++depth;
      } else if (c == ']' || c == '}' || c == ')') {
        --depth;
      }
    }
    if (depth <= 0) return;
    if (!NextLine()) Fail(first_line, "statement has no closing bracket before the end of file");
    text = line_;
  }
}

void Scanner::ScanScalar(const std::string& name, std::string_view text) {
  if (!text.empty() && text.back() == ';') text.remove_suffix(1);
  const std::string token(Trim(text));
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (token.empty() || *end != '\0' || !std::isfinite(value)) {
    Fail(line_number_, "mpc." + name + " = '" + token + "' is not a finite number");
  }
  base_mva = value;
  base_mva_line = line_number_;
}

void Scanner::ScanVersion(std::string_view text) {
  if (!text.empty() && text.back() == ';') text.remove_suffix(1);
  text = Trim(text);
  if (text != "'2'" && text != "\"2\"" && text != "2") {
    Fail(line_number_, "mpc.version is " + std::string(text) + "; only version '2' files are read");
  }
}

// The matrix `[ ... ]` starting in `text`: rows end at `;` or a line end
// (unless continued with `...`), entries are separated by blanks or commas.
void Scanner::ScanMatrix(const std::string& name, std::string_view text) {
  if (matrices.count(name)) {
    Fail(line_number_, "mpc." + name + " is assigned a second time (first on line " +
                           std::to_string(matrices[name].line) + ")");
  }
  if (text.empty() || text[0] != '[') {
    Fail(line_number_, "mpc." + name + " is not a matrix [ ... ]");
  }
  Matrix& m = matrices[name];
  m.line = line_number_;
  text.remove_prefix(1);
  std::vector<double> row;
  int row_line = 0;  // where the row began
  std::string token;
  auto end_token = [&] {
    if (token.empty()) return;
    if (row.empty()) row_line = line_number_;
    row.push_back(Number(token, name, m.rows() + 1, row.size() + 1));
    if (row.size() > limits_.max_columns) {
      Fail(line_number_, "mpc." + name + " row has more than " +
                             std::to_string(limits_.max_columns) + " entries");
    }
    token.clear();
  };
  while (true) {
    bool continued = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c == ' ' || c == '\t' || c == '\r' || c == ',') {
        end_token();
      } else if (c == ';') {
        end_token();
        EndRow(m, row, row_line, name);
      } else if (c == ']') {
        end_token();
        EndRow(m, row, row_line, name);
        std::string_view after = Trim(text.substr(i + 1));
        if (!after.empty() && after[0] == ';') after = Trim(after.substr(1));
        if (!after.empty()) {
          Fail(line_number_, "unexpected '" + std::string(after) + "' after the ] of mpc." + name);
        }
        return;
      } else if (c == '.' && text.substr(i, 3) == "...") {
        continued = true;  // the rest of the line is a comment
        break;
      } else {
        token.push_back(c);
      }
    }
    end_token();
    if (!continued) EndRow(m, row, row_line, name);
    if (!NextLine()) {
      Fail(m.line, "mpc." + name + " has no closing ] before the end of the file");
    }
    text = line_;
  }
}

void Scanner::EndRow(Matrix& m, std::vector<double>& row, int row_line, const std::string& name) {
  if (row.empty()) return;
  if (m.rows() == 0) m.columns = row.size();
  if (row.size() != m.columns) {
    Fail(row_line, "mpc." + name + " row " + std::to_string(m.rows() + 1) + " has " +
                           std::to_string(row.size()) + " columns, the rows before it have " +
                           std::to_string(m.columns));
  }
  if (m.rows() >= limits_.max_rows) {
    Fail(line_number_, "mpc." + name + " has more than " + std::to_string(limits_.max_rows) +
                           " rows");
  }
  m.values.insert(m.values.end(), row.begin(), row.end());
  m.row_lines.push_back(row_line);
  row.clear();
}

// A MATLAB number: what strtod reads in full; Inf (and 1e999) allowed, NaN refused.
double Scanner::Number(const std::string& token, const std::string& name, std::size_t row,
                       std::size_t column) const {
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (*end != '\0' || std::isnan(value)) {
    Fail(line_number_, "'" + token + "' in mpc." + name + " row " + std::to_string(row) +
                           ", column " + std::to_string(column) + " is not a number");
  }
  return value;
}

// Checks the raw matrices and keeps what the AC-OPF needs.
class Builder {
 public:
  explicit Builder(const Scanner& scanner) : s_(scanner) {}
  MatpowerCase Build(const std::string& name);

 private:
  const Matrix& Required(const std::string& name, std::size_t min_columns) const;
  int Integer(const Matrix& m, const std::string& name, std::size_t row, int column) const;
  void ReadBuses(const Matrix& bus);
  void ReadGens(const Matrix& gen, const Matrix& cost);
  void ReadCost(const Matrix& cost, std::size_t row, MatpowerGen& g) const;
  void ReadBranches(const Matrix& branch);
  // Index of the bus numbered `id` in c_.buses, -1 when it is isolated.
  int BusIndex(const Matrix& m, const std::string& name, std::size_t row, int column) const;

  const Scanner& s_;
  MatpowerCase c_;
  std::unordered_map<int, int> bus_index_;  // file number -> index, -1 for isolated buses
};

MatpowerCase Builder::Build(const std::string& name) {
  c_.name = name;
  if (s_.base_mva_line == 0) s_.Fail(0, "no mpc.baseMVA");
  if (!(s_.base_mva > 0)) s_.Fail(s_.base_mva_line, "mpc.baseMVA must be positive");
  c_.base_mva = s_.base_mva;
  ReadBuses(Required("bus", kBusColumns));
  ReadGens(Required("gen", kGenColumns), Required("gencost", cost_col::kFirstCoefficient));
  ReadBranches(Required("branch", kBranchColumns));
  return std::move(c_);
}

const Matrix& Builder::Required(const std::string& name, std::size_t min_columns) const {
  const auto it = s_.matrices.find(name);
  if (it == s_.matrices.end()) s_.Fail(0, "no mpc." + name + " matrix");
  const Matrix& m = it->second;
  if (m.rows() == 0) s_.Fail(m.line, "mpc." + name + " is empty");
  if (m.columns < min_columns) {
    s_.Fail(m.line, "mpc." + name + " has " + std::to_string(m.columns) +
                        " columns; a version-2 case has at least " + std::to_string(min_columns));
  }
  return m;
}

int Builder::Integer(const Matrix& m, const std::string& name, std::size_t row, int column) const {
  const double v = m.at(row, column);
  if (!(std::abs(v) < 1e9) || v != std::floor(v)) {
    s_.Fail(m.row_lines[row], "mpc." + name + " column " + std::to_string(column) + " is " +
                                  std::to_string(v) + ", not an integer");
  }
  return static_cast<int>(v);
}

int Builder::BusIndex(const Matrix& m, const std::string& name, std::size_t row, int column) const {
  const int id = Integer(m, name, row, column);
  const auto it = bus_index_.find(id);
  if (it == bus_index_.end()) {
    s_.Fail(m.row_lines[row], "mpc." + name + " refers to bus " + std::to_string(id) +
                                  ", which is not in mpc.bus");
  }
  return it->second;
}

void Builder::ReadBuses(const Matrix& bus) {
  using namespace bus_col;
  bool has_reference = false;
  for (std::size_t r = 0; r < bus.rows(); ++r) {
    const int line = bus.row_lines[r];
    MatpowerBus b;
    b.id = Integer(bus, "bus", r, kId);
    b.type = Integer(bus, "bus", r, kType);
    if (b.type < 1 || b.type > kIsolatedBus) {
      s_.Fail(line, "bus " + std::to_string(b.id) + " has type " + std::to_string(b.type) +
                        " (1 PQ, 2 PV, 3 reference, 4 isolated)");
    }
    const bool kept = b.type != kIsolatedBus;
    if (!bus_index_.emplace(b.id, kept ? static_cast<int>(c_.buses.size()) : -1).second) {
      s_.Fail(line, "bus number " + std::to_string(b.id) + " appears twice in mpc.bus");
    }
    if (!kept) continue;
    b.pd = bus.at(r, kPd), b.qd = bus.at(r, kQd), b.gs = bus.at(r, kGs), b.bs = bus.at(r, kBs);
    b.vmin = bus.at(r, kVmin), b.vmax = bus.at(r, kVmax);
    for (const double v : {b.pd, b.qd, b.gs, b.bs}) {
      if (!std::isfinite(v)) s_.Fail(line, "bus has a non-finite load or shunt");
    }
    if (!(b.vmin <= b.vmax)) s_.Fail(line, "bus " + std::to_string(b.id) + " has Vmin > Vmax");
    has_reference = has_reference || b.type == kReferenceBus;
    c_.buses.push_back(b);
  }
  if (!has_reference) s_.Fail(bus.line, "mpc.bus has no reference bus (type 3)");
}

void Builder::ReadGens(const Matrix& gen, const Matrix& cost) {
  using namespace gen_col;
  // MATPOWER allows a second block of rows for reactive power costs; the
  // AC-OPF of PowerModels (and so this one) prices active power only.
  if (cost.rows() != gen.rows() && cost.rows() != 2 * gen.rows()) {
    s_.Fail(cost.line, "mpc.gencost has " + std::to_string(cost.rows()) + " rows for " +
                           std::to_string(gen.rows()) + " generators");
  }
  for (std::size_t r = 0; r < gen.rows(); ++r) {
    const int line = gen.row_lines[r];
    MatpowerGen g;
    g.bus = BusIndex(gen, "gen", r, kBus);
    if (g.bus < 0 || !(gen.at(r, kStatus) > 0)) continue;  // isolated bus or out of service
    g.line = line;
    g.pmin = gen.at(r, kPmin), g.pmax = gen.at(r, kPmax);
    g.qmin = gen.at(r, kQmin), g.qmax = gen.at(r, kQmax);
    if (!(g.pmin <= g.pmax)) s_.Fail(line, "generator has Pmin > Pmax");
    if (!(g.qmin <= g.qmax)) s_.Fail(line, "generator has Qmin > Qmax");
    ReadCost(cost, r, g);
    c_.gens.push_back(g);
  }
}

// Row `row` of mpc.gencost: MODEL STARTUP SHUTDOWN NCOST c(n-1) ... c0.
void Builder::ReadCost(const Matrix& cost, std::size_t row, MatpowerGen& g) const {
  const int line = cost.row_lines[row];
  const int model = Integer(cost, "gencost", row, cost_col::kModel);
  if (model == kPiecewiseLinearCost) {
    s_.Fail(line, "piecewise linear generator cost (model 1) is not supported; only polynomial "
                  "costs (model 2)");
  }
  if (model != kPolynomialCost) {
    s_.Fail(line, "unknown generator cost model " + std::to_string(model));
  }
  const int n = Integer(cost, "gencost", row, cost_col::kNcost);
  if (n < 1 || n > kMaxCostTerms) {
    s_.Fail(line, "polynomial cost with " + std::to_string(n) +
                      " coefficients; 1, 2 or 3 (c2 P^2 + c1 P + c0) are supported");
  }
  if (cost_col::kFirstCoefficient - 1 + static_cast<std::size_t>(n) > cost.columns) {
    s_.Fail(line, "mpc.gencost row has " + std::to_string(n) + " coefficients but only " +
                      std::to_string(cost.columns - cost_col::kFirstCoefficient + 1) +
                      " columns for them");
  }
  double c[kMaxCostTerms] = {0, 0, 0};  // c[k]: coefficient of P^k
  for (int k = 0; k < n; ++k) c[k] = cost.at(row, cost_col::kFirstCoefficient + n - 1 - k);
  for (const double v : c) {
    if (!std::isfinite(v)) s_.Fail(line, "generator cost coefficient is not finite");
  }
  g.c0 = c[0], g.c1 = c[1], g.c2 = c[2];
}

void Builder::ReadBranches(const Matrix& branch) {
  using namespace branch_col;
  for (std::size_t r = 0; r < branch.rows(); ++r) {
    const int line = branch.row_lines[r];
    MatpowerBranch b;
    b.from = BusIndex(branch, "branch", r, kFrom);
    b.to = BusIndex(branch, "branch", r, kTo);
    if (b.from < 0 || b.to < 0 || !(branch.at(r, kStatus) > 0)) continue;
    if (b.from == b.to) s_.Fail(line, "branch connects a bus to itself");
    b.line = line;
    b.r = branch.at(r, kR), b.x = branch.at(r, kX), b.b = branch.at(r, kB);
    b.rate_a = branch.at(r, kRateA);
    b.tap = branch.at(r, kTap), b.shift = branch.at(r, kShift);
    b.angmin = branch.at(r, kAngmin), b.angmax = branch.at(r, kAngmax);
    for (const double v : {b.r, b.x, b.b, b.tap, b.shift}) {
      if (!std::isfinite(v)) s_.Fail(line, "branch has a non-finite r, x, b, ratio or angle");
    }
    if (!(b.rate_a >= 0)) s_.Fail(line, "branch has a negative RATE_A");
    if (!(b.angmin <= b.angmax)) s_.Fail(line, "branch has ANGMIN > ANGMAX");
    c_.branches.push_back(b);
  }
}

}  // namespace

MatpowerCase ParseMatpowerCase(std::istream& in, const std::string& source,
                               const MatpowerLimits& limits) {
  Scanner scanner(in, source, limits);
  scanner.ScanAll();
  if (in.bad()) scanner.Fail(0, "read error");
  return Builder(scanner).Build(StemOf(source));
}

MatpowerCase ReadMatpowerCase(const std::string& path, const MatpowerLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  return ParseMatpowerCase(in, path, limits);
}

}  // namespace acopf
