// support/test_read_file.cpp: read_file's statuses and its bound.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/read_file.hpp"

using namespace tikzlint;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() / ("tikzlint-read-" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  }
};
}  // namespace

TEST_CASE("read_file: the bytes of a file, up to and including the limit") {
  TempDir t;
  const std::string text = std::string("\\draw (0,0);\n\0binary\xff", 21);
  const std::string path = t.write("a.tex", text);
  FileText in = read_file(path, 1000);
  CHECK(in.status == FileText::Status::ok);
  CHECK(in.text == text);
  in = read_file(path, text.size());  // exactly at the limit
  CHECK(in.status == FileText::Status::ok);
  CHECK(in.text == text);
  in = read_file(t.write("empty.tex", ""), 10);
  CHECK(in.status == FileText::Status::ok);
  CHECK(in.text.empty());
}

TEST_CASE("read_file: too large, missing, a directory") {
  TempDir t;
  const std::string path = t.write("big.tex", std::string(5000, 'x'));
  FileText in = read_file(path, 4999);
  CHECK(in.status == FileText::Status::too_large);
  CHECK(in.size == 5000);
  CHECK(in.text.empty());
  CHECK(read_file((t.dir / "missing.tex").string(), 10).status == FileText::Status::missing);
  CHECK(read_file((t.dir / "big.tex" / "below").string(), 10).status == FileText::Status::missing);
  CHECK(read_file(t.dir.string(), 10).status == FileText::Status::directory);
}

TEST_CASE("read_file: a device is read only up to the limit") {
  FileText in = read_file("/dev/zero", 100000);
  CHECK(in.status == FileText::Status::too_large);
  CHECK(in.size == 0);  // not a regular file: no size
}
