// One table describing every field of qpm::Options: name, type, range,
// meaning, the paper's symbol and an accessor. Everything else about the
// options is derived from it: Options::IsValid (range checks), the Ipopt
// registration and ReadOptions (src/ipopt), docs/options.md
// (qpm-options-doc) and the listings of the `qpm` executable. Defaults are
// not in the table: they are read through the accessor from a
// default-constructed Options, so each is written once, in options.hpp.
//
// Adding an option: a field with its default in options.hpp, one entry in
// src/core/option_table.cpp (Registered(...) when users set it through Ipopt
// as qpm_*), then regenerate docs/options.md.
#ifndef QPM_CORE_OPTION_TABLE_HPP_
#define QPM_CORE_OPTION_TABLE_HPP_

#include <functional>
#include <string>
#include <vector>

#include "qpm/core/options.hpp"

namespace qpm {

enum class OptionType {
  kNumber,   // double
  kInteger,  // int or long
  kBool,     // choices "no", "yes" (values 0, 1)
  kEnum,     // one of `choices`; the value is the index into them
};

const char* ToString(OptionType type);

// value in [lower, upper], each side optional and possibly strict.
struct OptionRange {
  bool has_lower = false;
  double lower = 0.0;
  bool lower_strict = false;  // value > lower instead of >=
  bool has_upper = false;
  double upper = 0.0;
  bool upper_strict = false;  // value < upper instead of <=

  bool Contains(double value) const;  // false for NaN whenever a side is set
  bool Bounded() const { return has_lower || has_upper; }
  std::string ToString() const;  // "> 1", "in [0, 1)", "" when unbounded
};

struct OptionChoice {
  std::string name;     // the Ipopt string value, e.g. "trust-region"
  std::string meaning;  // one line
};

struct OptionEntry {
  // The qpm_* name when `registered`, else the field's path in Options
  // (e.g. "tr.eta_accept").
  std::string name;
  std::string field;     // path of the field in qpm::Options
  bool registered;       // set by users through Ipopt's options as `name`
  OptionType type;
  OptionRange range;     // numbers and integers; empty for bool and enum
  std::string symbol;    // the paper's symbol, "" if none
  std::string meaning;   // one line
  std::string details;   // longer text (Ipopt's long description), may be ""
  std::vector<OptionChoice> choices;  // kBool and kEnum, in the enum's order
  // The field as a double: integers exactly, bool 0/1, enum its index.
  std::function<double(const Options&)> get;
  std::function<void(Options*, double)> set;

  double Default() const { return get(Options()); }
  // "1e-08" -> "1e-8"; integers in full; bool and enum as their choice name.
  std::string Format(double value) const;
  std::string DefaultText() const { return Format(Default()); }
  // Index of the choice called `name`, -1 when there is none.
  int ChoiceIndex(const std::string& name) const;
};

// Every field of Options, registered options first, each once.
const std::vector<OptionEntry>& OptionTable();
// The entry called `name` (qpm_* or field path), nullptr when there is none.
const OptionEntry* FindOption(const std::string& name);
// The shortest text that reads back as `value`: "0.25", "500", "1e4", "1e-8".
std::string FormatNumber(double value);

}  // namespace qpm

#endif  // QPM_CORE_OPTION_TABLE_HPP_
