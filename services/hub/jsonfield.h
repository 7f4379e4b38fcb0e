// Reading a string field of a Hub answer: a missing field or one of another type reads as empty.
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

namespace ingot {

inline QString jsonString(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

}  // namespace ingot
