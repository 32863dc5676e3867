// Mock of <torch/ordered_dict.h> (torch::OrderedDict, as returned by
// Module::named_parameters()).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace torch {

template <typename Key, typename Value>
class OrderedDict {
 public:
  class Item;

  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  explicit OrderedDict(std::string key_description = "Key")
      : key_description_(std::move(key_description)) {}

  OrderedDict(const OrderedDict& other) = default;
  OrderedDict& operator=(const OrderedDict& other) = default;
  OrderedDict(OrderedDict&& other) noexcept = default;
  OrderedDict& operator=(OrderedDict&& other) noexcept = default;
  ~OrderedDict() = default;

  const std::string& key_description() const noexcept { return key_description_; }

  Item& front() { return items_.front(); }
  const Item& front() const { return items_.front(); }
  Item& back() { return items_.back(); }
  const Item& back() const { return items_.back(); }
  Item& operator[](size_t index) { return items_[index]; }
  const Item& operator[](size_t index) const { return items_[index]; }
  Value& operator[](const Key& key) { return *find(key); }
  const Value& operator[](const Key& key) const { return *find(key); }

  Value* find(const Key& key) noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  const Value* find(const Key& key) const noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  bool contains(const Key& key) const noexcept { return find(key) != nullptr; }

  Iterator begin() { return items_.begin(); }
  ConstIterator begin() const { return items_.begin(); }
  Iterator end() { return items_.end(); }
  ConstIterator end() const { return items_.end(); }

  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }

  template <typename K, typename V>
  Value& insert(K&& key, V&& value) {
    index_.emplace(key, items_.size());
    items_.emplace_back(Key(std::forward<K>(key)), Value(std::forward<V>(value)));
    return items_.back().value();
  }

  void clear() {
    index_.clear();
    items_.clear();
  }

  const std::vector<Item>& items() const noexcept { return items_; }
  std::vector<Key> keys() const {
    std::vector<Key> keys;
    for (const auto& item : items_)
      keys.push_back(item.key());
    return keys;
  }
  std::vector<Value> values() const {
    std::vector<Value> values;
    for (const auto& item : items_)
      values.push_back(item.value());
    return values;
  }
  std::vector<std::pair<Key, Value>> pairs() const {
    std::vector<std::pair<Key, Value>> values;
    for (const auto& item : items_)
      values.push_back(item.pair());
    return values;
  }

 private:
  std::unordered_map<Key, size_t> index_;
  std::vector<Item> items_;
  std::string key_description_{"Key"};
};

template <typename Key, typename Value>
class OrderedDict<Key, Value>::Item {
 public:
  Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}

  Value& operator*() { return value(); }
  const Value& operator*() const { return value(); }
  Value* operator->() { return &value(); }
  const Value* operator->() const { return &value(); }

  const Key& key() const noexcept { return pair_.first; }
  Value& value() noexcept { return pair_.second; }
  const Value& value() const noexcept { return pair_.second; }
  const std::pair<Key, Value>& pair() const noexcept { return pair_; }

 private:
  std::pair<Key, Value> pair_;
};

} // namespace torch
