// A small strict JSON reader/writer for the kit's typed bodies, md5 parameters and tests. Objects keep member
// order; numbers keep their literal text (int64 ids and decimal amounts stay exact). Never used to verify a
// call: 5.3 is over the raw bytes.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gamekit::json {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  /** A string's text, or a number's literal as written. */
  std::string text;
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members;

  static Value null() { return Value{}; }
  static Value of(bool b) { Value v; v.kind = Kind::Bool; v.boolean = b; return v; }
  static Value str(std::string s) { Value v; v.kind = Kind::String; v.text = std::move(s); return v; }
  /** A number from its JSON literal text, e.g. number("1234") or number("0.99"). */
  static Value number(std::string literal) { Value v; v.kind = Kind::Number; v.text = std::move(literal); return v; }
  static Value number(long long i) { return number(std::to_string(i)); }
  static Value array(std::vector<Value> items = {}) { Value v; v.kind = Kind::Array; v.items = std::move(items); return v; }
  static Value object(std::vector<std::pair<std::string, Value>> m = {}) { Value v; v.kind = Kind::Object; v.members = std::move(m); return v; }

  bool is_null() const { return kind == Kind::Null; }
  /** The member named k, or nullptr. */
  const Value* get(const std::string& k) const;
};

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/** Parses JSON text (UTF-8); throws ParseError. */
Value parse(const std::string& text);
/** JSON text of a value. */
std::string write(const Value& v);

}  // namespace gamekit::json
