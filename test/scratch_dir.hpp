// Tests write their scratch files (logs, option files, .sol files) into a
// fresh directory under std::filesystem::temp_directory_path(), removed with
// everything in it when the ScratchDir goes; never into the source tree or
// the working directory the test runs in.
#ifndef QPM_TEST_SCRATCH_DIR_HPP_
#define QPM_TEST_SCRATCH_DIR_HPP_

#include <stdlib.h>  // mkdtemp (POSIX)

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>

namespace qpm_test {

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "qpm_test_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Names of the regular files in `dir` whose names end in `suffix`.
inline std::set<std::string> FilesEndingWith(const std::filesystem::path& dir,
                                             const std::string& suffix) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.insert(name);
    }
  }
  return names;
}

// True when `file` names an entry directly inside `dir`.
inline bool IsDirectlyInside(const std::filesystem::path& file, const std::filesystem::path& dir) {
  return std::filesystem::weakly_canonical(file).parent_path() ==
         std::filesystem::weakly_canonical(dir);
}

}  // namespace qpm_test

#endif  // QPM_TEST_SCRATCH_DIR_HPP_
