//===--- DefaultChecks.cpp - the torch checks when nobody names checks ----===//

#include "driver/run/DefaultChecks.h"

using namespace clang::tidy;

namespace torch_tidy {

const char TorchDefaultChecks[] = "-*,torch-*";

bool userNamesChecks(ClangTidyOptionsProvider &Provider, llvm::StringRef File) {
  for (const auto &[Options, Source] : Provider.getRawOptions(File))
    if (Source != ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary &&
        Options.Checks && !Options.Checks->empty())
      return true;
  return false;
}

namespace {
class TorchDefaultProvider : public ClangTidyOptionsProvider {
public:
  explicit TorchDefaultProvider(std::unique_ptr<ClangTidyOptionsProvider> Inner)
      : Inner(std::move(Inner)) {}

  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }

  std::vector<OptionsSource> getRawOptions(llvm::StringRef File) override {
    std::vector<OptionsSource> Raw = Inner->getRawOptions(File);
    if (userNamesChecks(*Inner, File))
      return Raw;
    for (OptionsSource &Source : Raw)
      if (Source.second == OptionsSourceTypeDefaultBinary) {
        Source.first.Checks = TorchDefaultChecks;
        return Raw;
      }
    ClangTidyOptions Defaults;
    Defaults.Checks = TorchDefaultChecks;
    Raw.insert(Raw.begin(), {Defaults, OptionsSourceTypeDefaultBinary});
    return Raw;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
};
} // namespace

std::unique_ptr<ClangTidyOptionsProvider>
withTorchChecksByDefault(std::unique_ptr<ClangTidyOptionsProvider> Inner) {
  return std::make_unique<TorchDefaultProvider>(std::move(Inner));
}

} // namespace torch_tidy
