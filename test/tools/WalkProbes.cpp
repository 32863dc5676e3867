//===--- WalkProbes.cpp - the shared walk (StmtWalk), for its tests -------===//
//
// `probe_walk();` walks the statement just before it in its block and
// prints what the walk does, in order:
//   LINE:COL: walk=<event> <event> ...[ ended]
// An event is
//   >NAME        enter() of a call of NAME (asked of every statement)
//   CLASS        visit() of a statement (CallExpr(NAME) for a call,
//                DeclRefExpr(NAME) for a reference)
//   KIND(NAME)   visitDecl() of a declaration (Var(a))
//   /KIND(NAME)  leaveDecl() of it
// A call of a function named `skip` is not entered (nothing of it is
// visited); the visit of a call of a function named `stop` ends the walk
// (the line then ends with `ended`). `probe_walk_in_order();` is the same
// walk with Options::EnterInOrder.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/Walk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace clang;
using namespace torch_tidy::analysis;

llvm::ArrayRef<llvm::StringRef> walkProbeNames() {
  static const llvm::StringRef Names[] = {"probe_walk", "probe_walk_in_order"};
  return Names;
}

namespace {
std::string calleeName(const Stmt *S) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() ? Callee->getName().str() : "";
}

std::string declName(const Decl *D) {
  const auto *Named = dyn_cast<NamedDecl>(D);
  return std::string(D->getDeclKindName()) + "(" +
         (Named ? Named->getNameAsString() : "") + ")";
}

class Printer : public StmtWalk {
public:
  Printer(Options O, llvm::raw_ostream &OS) : StmtWalk(O), OS(OS) {}

protected:
  bool enter(Stmt *S) override {
    std::string Name = calleeName(S);
    if (isa<CallExpr>(S))
      print(">" + Name);
    return Name != "skip";
  }
  bool visit(Stmt *S) override {
    std::string Text = S->getStmtClassName();
    if (isa<CallExpr>(S))
      Text += "(" + calleeName(S) + ")";
    else if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      Text += "(" + Ref->getDecl()->getNameAsString() + ")";
    print(Text);
    return calleeName(S) != "stop";
  }
  bool visitDecl(Decl *D) override {
    print(declName(D));
    return true;
  }
  void leaveDecl(Decl *D) override { print("/" + declName(D)); }

private:
  void print(const std::string &Event) {
    OS << (First ? "" : " ") << Event;
    First = false;
  }
  llvm::raw_ostream &OS;
  bool First = true;
};
} // namespace

bool printWalkProbe(llvm::StringRef Probe, const CallExpr *Call, ASTContext &Ctx,
                    llvm::raw_ostream &OS) {
  if (!llvm::is_contained(walkProbeNames(), Probe))
    return false;
  // The statement before the probe in its block.
  const Stmt *Before = nullptr;
  auto Parents = Ctx.getParents(*Call);
  if (const auto *Block = Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>())
    for (const Stmt *S : Block->body()) {
      if (S == Call)
        break;
      Before = S;
    }
  StmtWalk::Options Options;
  Options.EnterInOrder = Probe == "probe_walk_in_order";
  OS << "walk=";
  Printer Walk(Options, OS);
  if (!Walk.walk(Before))
    OS << " ended";
  OS << "\n";
  return true;
}
