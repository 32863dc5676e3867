//===--- Overriders.cpp - The overriders of a virtual method in view ------===//

#include "checks/analysis/Overriders.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torch_tidy::analysis {

void Overriders::index(const DeclContext *DC) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : DC->decls()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      index(NS);
    } else if (const auto *Linkage = dyn_cast<LinkageSpecDecl>(D)) {
      index(Linkage);
    } else if (const auto *Class = dyn_cast<CXXRecordDecl>(D);
               Class && Class->isThisDeclarationADefinition() &&
               !Class->getDescribedClassTemplate() &&
               !isa<ClassTemplateSpecializationDecl>(Class)) {
      Class->forallBases([this](const CXXRecordDecl *Base) {
        Bases.insert(Base->getCanonicalDecl());
        return true;
      });
      for (const CXXMethodDecl *Method : Class->methods())
        for (const CXXMethodDecl *Overridden : Method->overridden_methods())
          Direct[Overridden->getCanonicalDecl()].push_back(Method);
      index(Class);
    }
  }
}

void Overriders::ensureIndexed() {
  if (!Indexed) {
    index(Ctx.getTranslationUnitDecl());
    Indexed = true;
  }
}

bool Overriders::derivedInView(const CXXRecordDecl *Class) {
  ensureIndexed();
  return Bases.contains(Class->getCanonicalDecl());
}

ArrayRef<const CXXMethodDecl *> Overriders::of(const CXXMethodDecl *Method) {
  ensureIndexed();
  Method = Method->getCanonicalDecl();
  if (auto It = All.find(Method); It != All.end())
    return It->second;
  llvm::SmallVector<const CXXMethodDecl *, 2> Found;
  llvm::SmallVector<const CXXMethodDecl *, 4> Todo{Method};
  while (!Todo.empty()) {
    const CXXMethodDecl *Next = Todo.pop_back_val();
    auto It = Direct.find(Next);
    if (It == Direct.end())
      continue;
    for (const CXXMethodDecl *Overrider : It->second)
      if (!llvm::is_contained(Found, Overrider)) {
        Found.push_back(Overrider);
        Todo.push_back(Overrider->getCanonicalDecl());
      }
  }
  return All[Method] = std::move(Found);
}

} // namespace torch_tidy::analysis
