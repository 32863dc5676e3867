//===--- ProjectSummaries.cpp - The summaries a project run leaves --------===//

#include "checks/analysis/ProjectSummaries.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <mutex>

namespace torch_tidy::analysis {

static constexpr llvm::StringLiteral Format = "torch-tidy-project-summaries";
static constexpr int Version = 1;

static std::string hashOf(llvm::StringRef Text) {
  return llvm::utohexstr(llvm::xxh3_64bits(Text), /*LowerCase=*/true) + ":" +
         std::to_string(Text.size());
}

std::string sourceHash(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer ? hashOf((*Buffer)->getBuffer()) : "";
}

std::string projectSummariesFile(llvm::StringRef CacheFolder,
                                 llvm::StringRef Database) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Database, Real)) {
    Real = Database;
    llvm::sys::fs::make_absolute(Real);
    llvm::sys::path::remove_dots(Real, /*remove_dot_dot=*/true);
  }
  llvm::SmallString<256> File(CacheFolder);
  llvm::sys::path::append(File, "summaries",
                          llvm::utohexstr(llvm::xxh3_64bits(Real),
                                          /*LowerCase=*/true) +
                              ".json");
  return std::string(File);
}

std::string projectSummariesText(llvm::StringRef Database,
                                 const std::vector<UnitSummaries> &Units) {
  llvm::json::Array List;
  for (const UnitSummaries &U : Units) {
    llvm::json::Object Unit{{"file", U.File},
                            {"hash", U.Hash},
                            {"summaries", U.Summaries.toJSON()}};
    if (!U.Headers.empty()) {
      llvm::json::Object Headers;
      for (const auto &[Header, Hash] : U.Headers)
        Headers[Header] = Hash;
      Unit["headers"] = std::move(Headers);
    }
    List.push_back(std::move(Unit));
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}",
                      llvm::json::Value(llvm::json::Object{
                          {"format", Format},
                          {"version", Version},
                          {"compile_database", Database},
                          {"units", std::move(List)}}))
     << "\n";
  return Text;
}

namespace {

/// A file as parsed: its units, each with what the file says of it.
struct Parsed {
  // The file as it was parsed: a file replaced by a rename (as every write
  // of it is) is another file, whatever its time and size.
  llvm::sys::fs::UniqueID ID;
  llvm::sys::TimePoint<> Modified;
  uint64_t Size = 0;
  std::string Database;
  std::vector<UnitSummaries> Units;
  /// The last answer: the changed units it was made with.
  std::vector<std::string> LastChanged;
  std::shared_ptr<const ProjectSummaries> Last;
};

/// A main file's hash, computed again only when its size or time changes.
struct Hashed {
  llvm::sys::fs::UniqueID ID;
  llvm::sys::TimePoint<> Modified;
  uint64_t Size = 0;
  std::string Hash;
};

bool parse(llvm::StringRef Text, Parsed &Out, std::string &Error) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    Error = "not JSON: " + llvm::toString(V.takeError());
    return false;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getString("format") != Format ||
      O->getInteger("version") != Version) {
    Error = "not a torch-tidy project summaries file of version " +
            std::to_string(Version);
    return false;
  }
  Out.Database = O->getString("compile_database").value_or("").str();
  const llvm::json::Array *Units = O->getArray("units");
  if (!Units) {
    Error = "no 'units' list";
    return false;
  }
  for (const llvm::json::Value &UV : *Units) {
    const llvm::json::Object *U = UV.getAsObject();
    auto File = U ? U->getString("file") : std::nullopt;
    auto Hash = U ? U->getString("hash") : std::nullopt;
    const llvm::json::Value *S = U ? U->get("summaries") : nullptr;
    UnitSummaries Unit;
    std::string Why;
    if (!File || !Hash || !S ||
        !FunctionSummaries::fromJSON(*S, Unit.Summaries, Why)) {
      Error = "a malformed unit" + (Why.empty() ? "" : ": " + Why);
      return false;
    }
    Unit.File = File->str();
    Unit.Hash = Hash->str();
    if (const llvm::json::Value *HV = U->get("headers")) {
      const llvm::json::Object *Headers = HV->getAsObject();
      if (!Headers) {
        Error = "a malformed unit: 'headers' is not an object";
        return false;
      }
      for (const auto &[Header, HashValue] : *Headers) {
        auto HeaderHash = HashValue.getAsString();
        if (!HeaderHash) {
          Error = "a malformed unit: a header's hash is not a string";
          return false;
        }
        Unit.Headers[Header.str()] = HeaderHash->str();
      }
    }
    Out.Units.push_back(std::move(Unit));
  }
  return true;
}

} // namespace

std::shared_ptr<const ProjectSummaries>
loadProjectSummaries(llvm::StringRef Path, std::string &Error) {
  static std::mutex Lock;
  static llvm::StringMap<Parsed> Files;
  static llvm::StringMap<Hashed> Sources;

  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    Error = "cannot read project summaries '" + Path.str() +
            "': " + EC.message();
    return nullptr;
  }
  std::lock_guard<std::mutex> Guard(Lock);
  Parsed &P = Files[Path];
  if (P.ID != Status.getUniqueID() ||
      P.Modified != Status.getLastModificationTime() ||
      P.Size != Status.getSize() || !P.Last) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    Parsed Fresh;
    std::string Why;
    if (!Buffer)
      Why = Buffer.getError().message();
    if (!Buffer || !parse((*Buffer)->getBuffer(), Fresh, Why)) {
      Files.erase(Path);
      Error = "cannot use project summaries '" + Path.str() + "': " + Why;
      return nullptr;
    }
    Fresh.ID = Status.getUniqueID();
    Fresh.Modified = Status.getLastModificationTime();
    Fresh.Size = Status.getSize();
    P = std::move(Fresh);
  }

  // Each file's hash now, computed again only when its size or time
  // changes; "" for a file that is gone.
  auto HashNow = [&](const std::string &File) -> std::string {
    llvm::sys::fs::file_status S;
    if (llvm::sys::fs::status(File, S))
      return "";
    Hashed &H = Sources[File];
    if (H.Hash.empty() || H.ID != S.getUniqueID() ||
        H.Modified != S.getLastModificationTime() || H.Size != S.getSize())
      H = {S.getUniqueID(), S.getLastModificationTime(), S.getSize(),
           sourceHash(File)};
    return H.Hash;
  };
  std::vector<std::string> Changed;
  std::vector<bool> Stale;
  for (const UnitSummaries &U : P.Units) {
    std::string Because;
    if (U.Hash.empty() || HashNow(U.File) != U.Hash)
      Because = U.File;
    for (const auto &[Header, Hash] : U.Headers)
      if (Because.empty() && (Hash.empty() || HashNow(Header) != Hash))
        Because = Header;
    Stale.push_back(!Because.empty());
    if (!Because.empty())
      Changed.push_back(Because == U.File
                            ? U.File
                            : U.File + " (through " + Because + ")");
  }
  if (P.Last && Changed == P.LastChanged)
    return P.Last;

  auto Merged = std::make_shared<FunctionSummaries>();
  // A changed unit's functions still refer to what they did (and most
  // likely still do): the functions it called still run.
  for (size_t I = 0; I < P.Units.size(); ++I)
    if (!Stale[I])
      Merged->merge(P.Units[I].Summaries);
    else
      Merged->mergeReferences(P.Units[I].Summaries);
  auto Result = std::make_shared<ProjectSummaries>();
  Result->Summaries = std::move(Merged);
  Result->Database = P.Database;
  Result->Units = P.Units.size();
  Result->Changed = Changed;
  P.LastChanged = std::move(Changed);
  P.Last = Result;
  return Result;
}

} // namespace torch_tidy::analysis
