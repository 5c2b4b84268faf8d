// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/ExternalData.h"

#include "Error.h"
#include "onnx/TensorProtoIo.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace specdec::nn {

namespace fs = std::filesystem;

namespace {

std::uint64_t parseCount(const std::string &value, const char *field, const std::string &what)
{
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size()
        || v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw Error(what + ": external data field '" + field + "' is \"" + value.substr(0, 40)
                    + "\", expected a whole number of bytes");
    return v;
}

} // namespace

ExternalDataEntry ExternalDataEntry::parse(const std::vector<std::pair<std::string, std::string>> &table,
                                           const std::string &what)
{
    ExternalDataEntry e;
    bool haveLocation = false;
    for (const auto &[key, value] : table) {
        if (key == "location") {
            e.location = value;
            haveLocation = true;
        } else if (key == "offset") {
            e.offset = parseCount(value, "offset", what);
        } else if (key == "length") {
            e.length = static_cast<std::int64_t>(parseCount(value, "length", what));
        } else if (key != "checksum") {
            throw Error(what + ": external data has an unknown field '" + key.substr(0, 40) + "'");
        }
    }
    if (!haveLocation || e.location.empty())
        throw Error(what + ": external data field 'location' is missing");
    const fs::path p(e.location);
    if (e.location.find('\0') != std::string::npos || p.is_absolute() || p.has_root_name() || p.has_root_directory())
        throw Error(what + ": external data field 'location' is \"" + e.location.substr(0, 80)
                    + "\", an absolute path; it must name a file inside the model's folder");
    for (const auto &part : p)
        if (part == "..")
            throw Error(what + ": external data field 'location' is \"" + e.location.substr(0, 80)
                        + "\", which leads out of the model's folder ('..')");
    return e;
}

void ExternalDataEntry::checkRange(std::uint64_t fileSize, std::uint64_t needed, const std::string &what) const
{
    if (offset > fileSize)
        throw Error(what + ": external data field 'offset' is " + std::to_string(offset) + ", past the end of "
                    + location + " (" + std::to_string(fileSize) + " bytes)");
    if (length >= 0 && static_cast<std::uint64_t>(length) < needed)
        throw Error(what + ": external data field 'length' is " + std::to_string(length) + " bytes; its shape needs "
                    + std::to_string(needed));
    if (fileSize - offset < needed)
        throw Error(what + ": external data in " + location + " holds " + std::to_string(fileSize - offset)
                    + " bytes from offset " + std::to_string(offset) + "; its shape needs " + std::to_string(needed)
                    + " (field 'length' " + (length >= 0 ? std::to_string(length) : std::string("not given")) + ")");
}

struct ExternalData::Mapping
{
    void *address = nullptr;
    std::uint64_t size = 0;
    MemoryClaim claim; ///< the mapped bytes, counted against the model memory limit
    ~Mapping()
    {
        if (address)
            ::munmap(address, size);
    }
    const std::byte *bytes() const { return static_cast<const std::byte *>(address); }
};

ExternalData::ExternalData(std::string modelPath)
    : m_model(std::move(modelPath))
{
    if (!m_model.empty())
        m_dir = fs::path(m_model).parent_path().string();
}

ExternalData::~ExternalData() = default;

std::shared_ptr<ExternalData::Mapping> ExternalData::map(const std::string &location, const std::string &what)
{
    if (const auto it = m_files.find(location); it != m_files.end())
        return it->second;
    if (m_model.empty())
        throw Error(what + ": the model has external data but was not read from a file");
    // Resolved with every symlink followed: the file must still be inside the model's folder.
    std::error_code ec;
    const fs::path root = fs::canonical(m_dir.empty() ? fs::path(".") : fs::path(m_dir), ec);
    const fs::path file = fs::canonical(fs::path(m_dir) / location, ec);
    if (ec)
        throw Error(what + ": external data file " + location + " cannot be opened: " + ec.message());
    const fs::path rel = file.lexically_relative(root);
    if (rel.empty() || *rel.begin() == "..")
        throw Error(what + ": external data field 'location' is \"" + location.substr(0, 80)
                    + "\", which resolves outside the model's folder (to " + file.string() + ")");
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw Error(what + ": external data file " + location + " cannot be opened: " + std::strerror(errno));
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw Error(what + ": external data file " + location + " is not a regular file");
    }
    auto mapping = std::make_shared<Mapping>();
    mapping->size = static_cast<std::uint64_t>(st.st_size);
    try {
        mapping->claim = MemoryClaim(static_cast<std::size_t>(std::min<std::uint64_t>(mapping->size, SIZE_MAX)),
                                     what + ": external data file " + location);
    } catch (const Error &) {
        ::close(fd);
        throw;
    }
    if (mapping->size > 0) {
        // Private pages: a kernel that wrote into a weight would get its own copy, the file never changes.
        mapping->address = ::mmap(nullptr, mapping->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (mapping->address == MAP_FAILED) {
            mapping->address = nullptr;
            ::close(fd);
            throw Error(what + ": external data file " + location + " cannot be mapped: " + std::strerror(errno));
        }
    }
    ::close(fd);
    m_files[location] = mapping;
    return mapping;
}

ExternalDataEntry ExternalData::locate(const onnx::TensorProto &proto, std::uint64_t needed, const std::string &what,
                                       std::shared_ptr<Mapping> &mapping)
{
    std::vector<std::pair<std::string, std::string>> table;
    for (const auto &kv : proto.external_data())
        table.emplace_back(kv.key(), kv.value());
    const ExternalDataEntry entry = ExternalDataEntry::parse(table, what);
    mapping = map(entry.location, what);
    entry.checkRange(mapping->size, needed, what);
    return entry;
}

Tensor ExternalData::tensor(const onnx::TensorProto &proto, const std::string &what)
{
    const DataType type = fromOnnxDataType(proto.data_type());
    if (type == DataType::Undefined)
        throw Error(what + ": element type " + onnxDataTypeName(proto.data_type()) + " is not supported");
    Shape shape(proto.dims().begin(), proto.dims().end());
    for (std::int64_t d : shape)
        if (d < 0)
            throw Error(what + ": negative dimension in " + shapeToString(shape));
    std::int64_t count = 0;
    try {
        count = elementCount(shape);
    } catch (const Error &e) {
        throw Error(what + ": " + e.what());
    }
    const std::size_t width = elementSize(type);
    if (static_cast<std::uint64_t>(count) > std::numeric_limits<std::uint64_t>::max() / width)
        throw Error(what + ": shape " + shapeToString(shape) + " needs more than 2^64 bytes");
    const std::uint64_t needed = static_cast<std::uint64_t>(count) * width;
    std::shared_ptr<Mapping> mapping;
    const ExternalDataEntry entry = locate(proto, needed, what, mapping);
    const std::byte *first = mapping->bytes() ? mapping->bytes() + entry.offset : nullptr;
    const bool view = type != DataType::Bool && std::endian::native == std::endian::little && needed > 0
        && reinterpret_cast<std::uintptr_t>(first) % width == 0;
    if (view) // shares the mapping: its pages stay until the last tensor of the file is gone
        return Tensor::adopt(type, std::move(shape),
                             std::shared_ptr<std::byte[]>(mapping, const_cast<std::byte *>(first)));
    onnx::TensorProto copy;
    copy.set_data_type(proto.data_type());
    for (std::int64_t d : shape)
        copy.add_dims(d);
    copy.set_raw_data(first ? std::string(reinterpret_cast<const char *>(first), needed) : std::string());
    return tensorFromProto(copy, what);
}

void ExternalData::inlineInto(onnx::TensorProto &proto, const std::string &what)
{
    std::int64_t count = 1;
    for (std::int64_t d : proto.dims()) {
        if (d < 0 || (d > 0 && count > std::numeric_limits<std::int64_t>::max() / 8 / d))
            throw Error(what + ": shape too large for external data");
        count *= d;
    }
    const std::uint64_t width = proto.data_type() == onnx::TensorProto::FLOAT16 ? 2 : 8;
    std::shared_ptr<Mapping> mapping;
    const ExternalDataEntry entry = locate(proto, static_cast<std::uint64_t>(count) * width, what, mapping);
    const char *first = mapping->bytes() ? reinterpret_cast<const char *>(mapping->bytes() + entry.offset) : "";
    proto.set_raw_data(std::string(first, static_cast<std::size_t>(count) * width));
    proto.clear_external_data();
    proto.set_data_location(onnx::TensorProto::DEFAULT);
}

std::uint64_t ExternalData::mappedBytes() const
{
    std::uint64_t total = 0;
    for (const auto &[name, m] : m_files)
        total += m->size;
    return total;
}

} // namespace specdec::nn
