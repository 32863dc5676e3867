// Which object an expression names, as a chain of declarations; which
// modules an optimizer holds, from where it is built.
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=path= -implicit-check-not=modules=

#include <torch/torch.h>
#include <memory>
#include <vector>

void probe_path(const torch::nn::Module &);
void probe_path(const torch::optim::Optimizer &);
void probe_optimized(const torch::optim::Optimizer &);

struct NetImpl : torch::nn::Module {
  torch::nn::Linear backbone{4, 4}, head{4, 2};
  void self() {
    // CHECK: [[@LINE+1]]:5: path=this.backbone
    probe_path(*backbone);
    // CHECK: [[@LINE+1]]:5: path=this.head
    probe_path(*this->head);
    // CHECK: [[@LINE+1]]:5: path=this
    probe_path(*this);
  }
};
TORCH_MODULE(Net);

struct Trainer {
  Net model;
  std::unique_ptr<torch::optim::SGD> optimizer;
  torch::optim::Adam adam;
  Trainer()
      : adam(model->head->parameters()) {
    optimizer = std::make_unique<torch::optim::SGD>(model->parameters(),
                                                    torch::optim::SGDOptions(0.1));
  }
};

void paths(Net &model, std::vector<Net> &models, Trainer &trainer) {
  // CHECK: [[@LINE+1]]:3: path=model
  probe_path(*model);
  // CHECK: [[@LINE+1]]:3: path=model.backbone
  probe_path(*model->backbone);
  // CHECK: [[@LINE+1]]:3: path=model.backbone
  probe_path(*model.ptr()->backbone.get());
  // An element of a container: not known.
  // CHECK: [[@LINE+1]]:3: path=?
  probe_path(*models[0]);
  // CHECK: [[@LINE+1]]:3: path=trainer.model.head
  probe_path(*trainer.model->head);
  // CHECK: [[@LINE+1]]:3: path=trainer.optimizer
  probe_path(*trainer.optimizer);
}

void optimizers(Net &model, Trainer &trainer, torch::optim::Adam &given,
                std::vector<torch::Tensor> params) {
  torch::optim::Adam adam(model->parameters());
  // CHECK: [[@LINE+1]]:3: modules=model
  probe_optimized(adam);
  torch::optim::SGD sgd({model->backbone->parameters()}, torch::optim::SGDOptions(0.1));
  // CHECK: [[@LINE+1]]:3: modules=model.backbone
  probe_optimized(sgd);
  // Built in the class: its members as this object names them.
  // CHECK: [[@LINE+1]]:3: modules=trainer.model
  probe_optimized(*trainer.optimizer);
  // CHECK: [[@LINE+1]]:3: modules=trainer.model.head
  probe_optimized(trainer.adam);
  // A parameter, and a build from a vector gathered elsewhere: not known.
  // CHECK: [[@LINE+1]]:3: modules=unknown
  probe_optimized(given);
  torch::optim::SGD from_vector(params, torch::optim::SGDOptions(0.1));
  // CHECK: [[@LINE+1]]:3: modules=unknown
  probe_optimized(from_vector);
  std::unique_ptr<torch::optim::Adam> later;
  later.reset(new torch::optim::Adam(model->head->parameters()));
  // CHECK: [[@LINE+1]]:3: modules=model.head
  probe_optimized(*later);
}
