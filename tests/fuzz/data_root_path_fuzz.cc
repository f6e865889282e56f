// The data-root check (catalogd/loader/confined_file_system.h), differential:
// for any path, ConfinedFileSystem::MayModify decides as the library walk
// (std::filesystem::weakly_canonical: a stat and a readlink per component)
// does, over a fixed tree with the kinds of entries that matter: a symlink
// out of the root, one inside it, a dangling one, the root named through a
// symlink, a file in the way. The input is tried as given (absolute, or
// against the working directory) and appended to the root, to the tree's
// top and to the outside directory.
//
// Properties: nothing throws or crashes; the two agree on every path
// without a NUL byte; a path with one is never inside (the kernel would
// see only what comes before it). MayModify only reads the file system.
#include <stdlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "catalogd/loader/confined_file_system.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace fs = std::filesystem;

struct Tree {
  std::string top, root, outside;
  std::unique_ptr<ics::catalog::ConfinedFileSystem> confined;
};

const Tree& TheTree() {
  static const Tree* tree = [] {
    auto* t = new Tree;
    char tmpl[] = "/tmp/ics_data_root_fuzz.XXXXXX";
    const char* made = ::mkdtemp(tmpl);
    FUZZ_CHECK(made != nullptr, "cannot make the temporary tree");
    t->top = fs::canonical(made).string();
    t->root = t->top + "/warehouse";
    t->outside = t->top + "/outside";
    fs::create_directories(t->root + "/db.db/t/k=1");
    fs::create_directories(t->outside);
    std::ofstream(t->root + "/db.db/t/file.txt") << "x";
    fs::create_directory_symlink(t->outside, t->root + "/db.db/escape");
    fs::create_directory_symlink(t->root + "/db.db/t", t->root + "/db.db/inner");
    fs::create_directory_symlink(t->root + "/missing", t->root + "/db.db/dangling");
    fs::create_directory_symlink(t->root, t->top + "/alias");
    auto c = ics::catalog::ConfinedFileSystem::Create(
        std::make_unique<ics::catalog::LocalFileSystem>(), {t->root});
    FUZZ_CHECK(c.ok(), "cannot confine to the temporary root");
    t->confined = std::move(c).value();
    // The tree is this process's own (mkdtemp); its links are removed, not
    // followed.
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(TheTree().top, ec);
    });
    return t;
  }();
  return *tree;
}

bool InsideByLibraryWalk(const std::string& root, const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  if (ec) return false;
  std::string p = fs::weakly_canonical(abs, ec).lexically_normal().string();
  if (ec) return false;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p.size() > root.size() + 1 && p.compare(0, root.size(), root) == 0 &&
         p[root.size()] == '/';
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 2048) return 0;  // longer than any path the kernel resolves in one piece
  const Tree& t = TheTree();
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const std::string& path :
       {text, t.root + "/" + text, t.top + "/" + text, t.outside + "/" + text}) {
    const bool inside = t.confined->MayModify(path);
    if (path.find('\0') != std::string::npos) {
      FUZZ_CHECK(!inside, "a path with a NUL byte was judged inside: " + path);
      continue;
    }
    FUZZ_CHECK(inside == InsideByLibraryWalk(t.root, path),
               std::string(inside ? "inside" : "outside") +
                   " by the kernel's resolution but not by the library walk: " + path);
  }
  return 0;
}
