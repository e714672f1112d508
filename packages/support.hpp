// packages/support.hpp: what the package models share: the handler of a package that keeps no
// state between statements. Each package folder defines its factory `packages::<name>()`, which
// packages/registry.cpp lists.
#pragma once
#include <memory>
#include <string_view>

#include "ir/package.hpp"

namespace tikzlint::packages {

// A package that lowers each statement on its own: `lower` answers every offered statement.
using LowerStatement = ir::Offer (*)(const ir::PackageStatement& s, ir::LibraryHost& host);

class StatementPackage : public ir::Package {
 public:
  StatementPackage(std::string_view name, LowerStatement lower) : name_(name), lower_(lower) {}
  std::string_view name() const override { return name_; }
  std::unique_ptr<ir::PackagePicture> begin_picture(const tex::Picture&) const override {
    return std::make_unique<Handler>(lower_);
  }

 private:
  class Handler final : public ir::PackagePicture {
   public:
    explicit Handler(LowerStatement lower) : lower_(lower) {}
    ir::Offer lower_statement(const ir::PackageStatement& s, ir::LibraryHost& host) override {
      return lower_(s, host);
    }

   private:
    LowerStatement lower_;
  };
  std::string_view name_;
  LowerStatement lower_;
};

inline std::unique_ptr<ir::Package> statement_package(std::string_view name, LowerStatement lower) {
  return std::make_unique<StatementPackage>(name, lower);
}

}  // namespace tikzlint::packages
