// The Ipopt side of the option table (qpm/core/option_table.hpp): its
// registered entries become qpm_* Ipopt options and are read back from an
// OptionsList, both by looping over the table. Ipopt's own options that qpm
// reads keep their own mapping (QpmApplication::ReadOptions and friends);
// IpoptOptionsRead() describes them for the docs and the qpm executable, and
// test/options_test.cpp checks it against the options a solve reads.
#ifndef QPM_IPOPT_IPOPT_OPTIONS_HPP_
#define QPM_IPOPT_IPOPT_OPTIONS_HPP_

#include <string>
#include <vector>

#include <IpOptionsList.hpp>
#include <IpRegOptions.hpp>

#include "qpm/core/option_table.hpp"

namespace qpm {

// One of Ipopt's options and what qpm does with it.
struct IpoptOptionUse {
  const char* name;
  const char* use;
};

// Every Ipopt option qpm reads, in the order of the docs.
const std::vector<IpoptOptionUse>& IpoptOptionsRead();

// A registered option's default as text: "1e-8", "3000", "exact", "\"\"".
std::string DefaultText(const Ipopt::RegisteredOption& option);

// Registers each registered entry of OptionTable() under its name, with the
// range, choices and texts of the entry and the default of a default Options.
void RegisterTableOptions(Ipopt::RegisteredOptions* registry);

// Sets each registered field of `options` from `list`: the user's value, or
// the registered default when the user set none.
void ReadTableOptions(const Ipopt::OptionsList& list, Options* options);

}  // namespace qpm

#endif  // QPM_IPOPT_IPOPT_OPTIONS_HPP_
