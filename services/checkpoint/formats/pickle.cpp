#include "services/checkpoint/formats/pickle.h"

#include <cstring>
#include <set>
#include <unordered_map>

namespace ingot {

PickleArena::~PickleArena()
{
    // Every container is still held here: emptying them releases only leaves, never a chain of containers.
    for (const PV &p : nodes) {
        p->items.clear();
        p->dict.clear();
    }
}

std::int64_t TensorRef::numel() const
{
    std::int64_t n = 0;
    return checkedNumel(shape, &n) ? n : -1;
}

bool TensorRef::isContiguous() const
{
    std::int64_t expected = 1;
    for (int i = int(shape.size()) - 1; i >= 0; --i) {
        if (shape[size_t(i)] != 1 && stride[size_t(i)] != expected)
            return false;
        if (!checkedMul(expected, shape[size_t(i)], &expected))
            return false;
    }
    return true;
}

const StorageRef &PickleValue::storage() const
{
    static const StorageRef none;
    return storagePtr ? *storagePtr : none;
}

const TensorRef &PickleValue::tensor() const
{
    static const TensorRef none;
    return tensorPtr ? *tensorPtr : none;
}

const PickleValue *PickleValue::get(std::string_view key) const
{
    if (kind != Kind::Dict && kind != Kind::Object)
        return nullptr;
    for (const auto &[k, v] : dict)
        if (k && k->kind == Kind::Str && k->s == key)
            return v.get();
    return nullptr;
}

namespace {

// The globals a torch checkpoint may name. Everything else is refused.
bool allowedGlobal(const std::string &g)
{
    static const std::set<std::string> exact = {
        "collections.OrderedDict",
        "torch._utils._rebuild_tensor_v2",
        "torch._utils._rebuild_parameter",
        "torch._utils._rebuild_parameter_with_state",
        "torch.Size",
        "_codecs.encode",
        "torch.storage.UntypedStorage",
        // Older optimum-neuron metadata (mp_metadata_pp_rank_Y.pt) holds a set of names: made a list, nothing run.
        "__builtin__.set",
        "builtins.set",
        // xser checkpoints (torch_xla / neuronx-distributed) refer to tensors saved in files of their own.
        "torch_xla.utils.serialization.TensorReference",
    };
    if (exact.count(g))
        return true;
    return dtypeFromTorchStorage(g) != DType::Unknown || dtypeFromTorchDtype(g) != DType::Unknown;
}

// The dataclasses torch.distributed.checkpoint pickles into .metadata (torch 2.6 to 2.12: metadata.py, filesystem.py),
// made into Object values by NEWOBJ and filled by BUILD. Only unpickleDcpMetadata() accepts them.
bool dcpClass(const std::string &g)
{
    static const std::set<std::string> classes = {
        "torch.distributed.checkpoint.metadata.Metadata",
        "torch.distributed.checkpoint.metadata.TensorStorageMetadata",
        "torch.distributed.checkpoint.metadata.TensorProperties",
        "torch.distributed.checkpoint.metadata.ChunkStorageMetadata",
        "torch.distributed.checkpoint.metadata.BytesStorageMetadata",
        "torch.distributed.checkpoint.metadata.MetadataIndex",
        "torch.distributed.checkpoint.metadata.StorageMeta",
        "torch.distributed.checkpoint.filesystem._StorageInfo",
    };
    return classes.count(g) > 0;
}

// The callables a .metadata calls, each made into plain data (see reduce()).
bool dcpCallable(const std::string &g)
{
    return g == "torch.distributed.checkpoint.metadata._MEM_FORMAT_ENCODING" || g == "torch.serialization._get_layout" ||
           g == "pathlib.PosixPath" || g == "pathlib._local.PosixPath";
}

// Torch's storage keys are small numbers and its locations "cpu" or "cuda:0": longer ones are not a checkpoint's.
constexpr std::size_t kMaxStorageKey = 256;

struct Machine {
    std::shared_ptr<PickleArena> arena;
    std::string_view in;
    std::size_t pos = 0;
    std::size_t budget;  // bytes the values may still take
    std::vector<PV> stack;
    std::vector<std::size_t> marks;
    std::unordered_map<std::uint64_t, PV> memo;
    std::string error;
    bool dcp = false;  // a DCP .metadata: its dataclasses are allowed

    bool fail(const std::string &why)
    {
        if (error.empty())
            error = why + " (at byte " + std::to_string(pos) + ")";
        return false;
    }
    // Every allocation the input causes is paid for first.
    bool charge(std::size_t bytes)
    {
        if (bytes > budget)
            return fail("the pickle is too large: it would take more memory than " + std::to_string(in.size()) +
                        " bytes of pickle can (corrupt or hostile)");
        budget -= bytes;
        return true;
    }
    bool need(std::size_t n)
    {
        if (in.size() - pos < n)
            return fail("the pickle ends too early: truncated or corrupt");
        return true;
    }
    std::uint64_t le(int n)
    {
        std::uint64_t v = 0;
        for (int k = 0; k < n; ++k)
            v |= std::uint64_t(std::uint8_t(in[pos + std::size_t(k)])) << (8 * k);
        pos += std::size_t(n);
        return v;
    }
    static bool isContainer(PickleValue::Kind k)
    {
        return k == PickleValue::Kind::List || k == PickleValue::Kind::Tuple || k == PickleValue::Kind::Dict ||
               k == PickleValue::Kind::Object;
    }
    PV make(PickleValue::Kind k)
    {
        if (!charge(sizeof(PickleValue) + 32))
            return nullptr;
        auto v = std::make_shared<PickleValue>();
        v->kind = k;
        if (isContainer(k))
            arena->nodes.push_back(v);
        return v;
    }
    bool push(PV v)
    {
        if (!v || !charge(sizeof(PV)))
            return false;
        stack.push_back(std::move(v));
        return true;
    }
    // The operand frame above the innermost mark.
    std::size_t frameBase() const { return marks.empty() ? 0 : marks.back(); }
    bool pop(PV *out)
    {
        if (stack.size() <= frameBase())
            return fail("malformed pickle: stack underflow");
        *out = std::move(stack.back());
        stack.pop_back();
        return true;
    }
    // The object below the operands just popped (APPEND's list, SETITEM's dict, BUILD's object).
    PickleValue *top()
    {
        return stack.size() > frameBase() ? stack.back().get() : nullptr;
    }
    bool popMark(std::vector<PV> *items)
    {
        if (marks.empty())
            return fail("malformed pickle: no mark");
        const std::size_t m = marks.back();
        marks.pop_back();
        if (m > stack.size())
            return fail("malformed pickle: bad mark");
        items->assign(std::make_move_iterator(stack.begin() + long(m)), std::make_move_iterator(stack.end()));
        stack.resize(m);
        return true;
    }
    bool text(std::size_t n, PickleValue::Kind kind)
    {
        if (!need(n) || !charge(n))
            return false;
        PV v = make(kind);
        if (!v)
            return false;
        v->s.assign(in.data() + pos, n);
        pos += n;
        return push(std::move(v));
    }
    bool integer(std::int64_t i)
    {
        PV v = make(PickleValue::Kind::Int);
        if (!v)
            return false;
        v->i = i;
        return push(std::move(v));
    }
    bool memoPut(std::uint64_t idx)
    {
        if (stack.empty())
            return fail("malformed pickle: nothing to memoize");
        if (!charge(64))
            return false;
        memo[idx] = stack.back();
        return true;
    }
    bool memoGet(std::uint64_t idx)
    {
        auto it = memo.find(idx);
        if (it == memo.end())
            return fail("malformed pickle: unknown memo entry");
        return push(it->second);
    }
    bool global(const std::string &module, const std::string &name)
    {
        if (!charge(module.size() + name.size() + 1))
            return false;
        const std::string g = module + "." + name;
        if (!allowedGlobal(g) && !(dcp && (dcpClass(g) || dcpCallable(g))))
            return fail("refused: the checkpoint's pickle references " + g.substr(0, 200) +
                        ", which is not a tensor, storage or container type (a checkpoint never needs it; loading "
                        "it could run code)");
        PV v = make(PickleValue::Kind::Global);
        if (!v)
            return false;
        v->s = g;
        return push(std::move(v));
    }
    static bool asInt(const PV &v, std::int64_t *out)
    {
        if (!v || (v->kind != PickleValue::Kind::Int && v->kind != PickleValue::Kind::Bool))
            return false;
        *out = v->kind == PickleValue::Kind::Bool ? v->b : v->i;
        return true;
    }
    bool intTuple(const PV &v, std::vector<std::int64_t> *out)
    {
        if (!v || (v->kind != PickleValue::Kind::Tuple && v->kind != PickleValue::Kind::List) ||
            v->items.size() > kMaxTensorDims || !charge(v->items.size() * sizeof(std::int64_t)))
            return false;
        out->clear();
        for (const PV &x : v->items) {
            std::int64_t n;
            if (!asInt(x, &n))
                return false;
            out->push_back(n);
        }
        return true;
    }
    // Container slots are paid for as they are filled.
    bool fill(std::vector<PV> *to, std::vector<PV> &&from)
    {
        if (!charge(from.size() * sizeof(PV)))
            return false;
        for (PV &x : from)
            to->push_back(std::move(x));
        return true;
    }
    bool rebuildTensor(const std::vector<PV> &a)
    {
        // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
        if (a.size() < 4 || a[0]->kind != PickleValue::Kind::Storage)
            return fail("malformed tensor in the pickle");
        auto t = std::make_shared<TensorRef>();
        if (!charge(sizeof(TensorRef) + a[0]->storage().key.size() + a[0]->storage().location.size()))
            return false;
        t->storage = a[0]->storage();
        t->dtype = t->storage.dtype;
        if (!asInt(a[1], &t->storageOffset) || !intTuple(a[2], &t->shape) || !intTuple(a[3], &t->stride) ||
            t->shape.size() != t->stride.size())
            return fail("malformed tensor shape in the pickle (more than " + std::to_string(kMaxTensorDims) +
                        " dims, or not integers)");
        if (t->storageOffset < 0)
            return fail("malformed tensor in the pickle: a negative storage offset");
        for (std::size_t k = 0; k < t->shape.size(); ++k)
            if (t->shape[k] < 0 || t->stride[k] < 0)
                return fail("malformed tensor shape in the pickle: a negative size or stride");
        if (t->numel() < 0)
            return fail("malformed tensor shape in the pickle: its element count does not fit in 64 bits");
        PV v = make(PickleValue::Kind::Tensor);
        if (!v)
            return false;
        v->tensorPtr = std::move(t);
        return push(std::move(v));
    }
    bool reduce()
    {
        PV args, fn;
        if (!pop(&args) || !pop(&fn))
            return false;
        if (fn->kind != PickleValue::Kind::Global || args->kind != PickleValue::Kind::Tuple)
            return fail("malformed pickle: REDUCE of something that is not an allowed callable");
        const std::string &g = fn->s;
        const auto &a = args->items;
        if (g == "collections.OrderedDict") {
            if (!a.empty())
                return fail("unsupported OrderedDict construction");
            return push(make(PickleValue::Kind::Dict));
        }
        if (g == "torch.Size") {
            PV t = make(PickleValue::Kind::Tuple);
            if (!t)
                return false;
            if (!a.empty() && (a[0]->kind == PickleValue::Kind::Tuple || a[0]->kind == PickleValue::Kind::List) &&
                !fill(&t->items, std::vector<PV>(a[0]->items)))
                return false;
            return push(std::move(t));
        }
        if (g == "_codecs.encode") {
            // Protocol 2 writes bytes as _codecs.encode(str, "latin1"): undo that, nothing else.
            if (a.size() != 2 || !a[0]->isStr() || !a[1]->isStr() || (a[1]->s != "latin1" && a[1]->s != "latin-1"))
                return fail("unsupported _codecs.encode call");
            const std::string &u = a[0]->s;
            PV b = make(PickleValue::Kind::Bytes);
            if (!b || !charge(u.size()))
                return false;
            // The str is UTF-8 here; latin1 encoding maps each code point below 256 to one byte.
            for (std::size_t k = 0; k < u.size(); ++k) {
                const unsigned char c = static_cast<unsigned char>(u[k]);
                if (c < 0x80)
                    b->s.push_back(char(c));
                else if ((c & 0xE0) == 0xC0 && k + 1 < u.size()) {
                    b->s.push_back(char(((c & 0x1F) << 6) | (static_cast<unsigned char>(u[k + 1]) & 0x3F)));
                    ++k;
                } else
                    return fail("unsupported _codecs.encode payload");
            }
            return push(std::move(b));
        }
        if (g == "__builtin__.set" || g == "builtins.set") {
            PV l = make(PickleValue::Kind::List);
            if (!l)
                return false;
            if (a.size() == 1 && (a[0]->kind == PickleValue::Kind::List || a[0]->kind == PickleValue::Kind::Tuple))
                return fill(&l->items, std::vector<PV>(a[0]->items)) && push(std::move(l));
            return a.empty() ? push(std::move(l)) : fail("unsupported set construction");
        }
        if (g == "torch._utils._rebuild_tensor_v2")
            return rebuildTensor(a);
        if (dcp && dcpCallable(g))
            return dcpReduce(g, a);
        if (g == "torch._utils._rebuild_parameter" || g == "torch._utils._rebuild_parameter_with_state") {
            if (a.empty() || a[0]->kind != PickleValue::Kind::Tensor)
                return fail("malformed parameter in the pickle");
            return push(a[0]);
        }
        return fail("refused: the pickle calls " + g.substr(0, 200) + ", which Ingot does not run");
    }
    // _MEM_FORMAT_ENCODING(n) becomes n; _get_layout("torch.strided") and PosixPath("a", "b") their strings (the
    // path's parts joined with '/').
    bool dcpReduce(const std::string &g, const std::vector<PV> &a)
    {
        if (g == "torch.distributed.checkpoint.metadata._MEM_FORMAT_ENCODING") {
            if (a.size() != 1 || a[0]->kind != PickleValue::Kind::Int)
                return fail("malformed memory format in the DCP metadata");
            return integer(a[0]->i);
        }
        PV v = make(PickleValue::Kind::Str);
        if (!v)
            return false;
        for (const PV &x : a) {
            if (!x->isStr() || (g == "torch.serialization._get_layout" && a.size() != 1))
                return fail("malformed " + g + " call in the DCP metadata");
            if (!charge(x->s.size() + 1))
                return false;
            v->s += (v->s.empty() ? "" : "/") + x->s;
        }
        return push(std::move(v));
    }
    bool persistentLoad(const PV &pid)
    {
        // ('storage', <torch.XStorage>, key, location, numel)
        if (pid->kind != PickleValue::Kind::Tuple || pid->items.size() < 5 || !pid->items[0]->isStr() ||
            pid->items[0]->s != "storage")
            return fail("malformed persistent id in the pickle");
        const PV &type = pid->items[1];
        if (type->kind != PickleValue::Kind::Global)
            return fail("malformed storage type in the pickle");
        auto st = std::make_shared<StorageRef>();
        st->dtype = dtypeFromTorchStorage(type->s);
        if (st->dtype == DType::Unknown)
            st->dtype = dtypeFromTorchDtype(type->s);
        if (st->dtype == DType::Unknown)
            return fail("unsupported storage type " + type->s.substr(0, 200));
        if (!pid->items[2]->isStr() || pid->items[2]->s.size() > kMaxStorageKey ||
            pid->items[3]->s.size() > kMaxStorageKey)
            return fail("malformed storage key in the pickle");
        if (!charge(sizeof(StorageRef) + pid->items[2]->s.size() + pid->items[3]->s.size()))
            return false;
        st->key = pid->items[2]->s;
        if (pid->items[3]->isStr())
            st->location = pid->items[3]->s;
        if (!asInt(pid->items[4], &st->numel) || st->numel < 0)
            return fail("malformed storage size in the pickle");
        PV s = make(PickleValue::Kind::Storage);
        if (!s)
            return false;
        s->storagePtr = std::move(st);
        return push(std::move(s));
    }
    bool setItems(PickleValue *dict, std::vector<PV> &kv)
    {
        if (!dict || dict->kind != PickleValue::Kind::Dict || kv.size() % 2)
            return fail("malformed pickle: SETITEMS on something that is not a dict");
        if (!charge(kv.size() * sizeof(PV)))
            return false;
        for (std::size_t k = 0; k + 1 < kv.size(); k += 2)
            dict->dict.emplace_back(std::move(kv[k]), std::move(kv[k + 1]));
        return true;
    }
    bool tuple(std::size_t n)
    {
        if (stack.size() < frameBase() + n)
            return fail("malformed pickle: stack underflow");
        PV t = make(PickleValue::Kind::Tuple);
        if (!t || !fill(&t->items, std::vector<PV>(stack.end() - long(n), stack.end())))
            return false;
        stack.resize(stack.size() - n);
        return push(std::move(t));
    }

    // One opcode: the framing, scalars, memo and stack ones here, the containers' and the objects' in the two below.
    bool step(unsigned char op, PV *result, bool *stop)
    {
        switch (op) {
        case 0x80: // PROTO
            if (!need(1))
                return false;
            if (static_cast<unsigned char>(in[pos]) > 5)
                return fail("unsupported pickle protocol");
            ++pos;
            return true;
        case 0x95: // FRAME
            if (!need(8))
                return false;
            pos += 8;
            return true;
        case '.': { // STOP
            PV v;
            if (!pop(&v))
                return false;
            *result = std::move(v);
            *stop = true;
            return true;
        }
        case '(':
            if (!charge(sizeof(std::size_t)))
                return false;
            marks.push_back(stack.size());
            return true;
        case 'N': return push(make(PickleValue::Kind::None));
        case 0x88: case 0x89: {
            PV v = make(PickleValue::Kind::Bool);
            if (!v)
                return false;
            v->b = op == 0x88;
            return push(std::move(v));
        }
        case 'K': return need(1) && integer(std::int64_t(le(1)));
        case 'M': return need(2) && integer(std::int64_t(le(2)));
        case 'J': return need(4) && integer(std::int32_t(le(4)));
        case 0x8a: { // LONG1
            if (!need(1))
                return false;
            const int n = int(le(1));
            if (n > 8)
                return fail("an integer in the pickle is too large");
            if (!need(std::size_t(n)))
                return false;
            const std::uint64_t u = le(n);
            std::int64_t v = std::int64_t(u);
            if (n > 0 && n < 8 && (u >> (8 * n - 1)) & 1)
                v = std::int64_t(u | (~std::uint64_t(0) << (8 * n)));
            return integer(v);
        }
        case 'G': { // BINFLOAT, big-endian
            if (!need(8))
                return false;
            std::uint64_t u = 0;
            for (int k = 0; k < 8; ++k)
                u = (u << 8) | static_cast<unsigned char>(in[pos + std::size_t(k)]);
            pos += 8;
            PV x = make(PickleValue::Kind::Float);
            if (!x)
                return false;
            std::memcpy(&x->f, &u, 8);
            return push(std::move(x));
        }
        case 'X': case 'T': case 'B': // 4-byte lengths
            return need(4) && text(std::size_t(le(4)), op == 'B' ? PickleValue::Kind::Bytes : PickleValue::Kind::Str);
        case 0x8c: case 'U': case 'C': // 1-byte lengths
            return need(1) && text(std::size_t(le(1)), op == 'C' ? PickleValue::Kind::Bytes : PickleValue::Kind::Str);
        case 0x8d: case 0x8e: // 8-byte lengths
            return need(8) && text(std::size_t(le(8)), op == 0x8e ? PickleValue::Kind::Bytes : PickleValue::Kind::Str);
        case 'q': return need(1) && memoPut(le(1));
        case 'r': return need(4) && memoPut(le(4));
        case 0x94: return memoPut(memo.size());
        case 'h': return need(1) && memoGet(le(1));
        case 'j': return need(4) && memoGet(le(4));
        case '0': { PV v; return pop(&v); } // POP
        case '2': { // DUP
            const PickleValue *t = top();
            return t ? push(stack.back()) : fail("malformed pickle: DUP");
        }
        case '1': { std::vector<PV> items; return popMark(&items); } // POP_MARK
        default: return containerStep(op);
        }
    }

    // The opcodes that make and fill lists, tuples and dicts.
    bool containerStep(unsigned char op)
    {
        switch (op) {
        case '}': return push(make(PickleValue::Kind::Dict));
        case ']': return push(make(PickleValue::Kind::List));
        case ')': return push(make(PickleValue::Kind::Tuple));
        case 'd': case 'l': case 't': {
            std::vector<PV> items;
            if (!popMark(&items))
                return false;
            PV c = make(op == 'd' ? PickleValue::Kind::Dict : op == 'l' ? PickleValue::Kind::List : PickleValue::Kind::Tuple);
            if (!c)
                return false;
            if (op == 'd' ? !setItems(c.get(), items) : !fill(&c->items, std::move(items)))
                return false;
            return push(std::move(c));
        }
        case 0x85: case 0x86: case 0x87: return tuple(std::size_t(op - 0x84));
        case 'a': {
            PV v;
            if (!pop(&v))
                return false;
            PickleValue *list = top();
            if (!list || list->kind != PickleValue::Kind::List)
                return fail("malformed pickle: APPEND to a non-list");
            std::vector<PV> one{std::move(v)};
            return fill(&list->items, std::move(one));
        }
        case 'e': {
            std::vector<PV> items;
            if (!popMark(&items))
                return false;
            PickleValue *list = top();
            if (!list || list->kind != PickleValue::Kind::List)
                return fail("malformed pickle: APPENDS to a non-list");
            return fill(&list->items, std::move(items));
        }
        case 's': {
            PV v, k;
            if (!pop(&v) || !pop(&k))
                return false;
            std::vector<PV> kv{std::move(k), std::move(v)};
            return setItems(top(), kv);
        }
        case 'u': {
            std::vector<PV> kv;
            return popMark(&kv) && setItems(top(), kv);
        }
        default: return objectStep(op);
        }
    }

    // The opcodes that name classes and build objects: only what a checkpoint holds is allowed.
    bool objectStep(unsigned char op)
    {
        switch (op) {
        case 'c': { // GLOBAL "module\nname\n"
            const std::size_t a = in.find('\n', pos);
            const std::size_t b = a == std::string_view::npos ? a : in.find('\n', a + 1);
            if (b == std::string_view::npos)
                return fail("malformed pickle: GLOBAL");
            const std::string module(in.substr(pos, a - pos)), name(in.substr(a + 1, b - a - 1));
            pos = b + 1;
            return global(module, name);
        }
        case 0x93: { // STACK_GLOBAL
            PV name, module;
            if (!pop(&name) || !pop(&module))
                return false;
            if (!name->isStr() || !module->isStr())
                return fail("malformed pickle: STACK_GLOBAL");
            return global(module->s, name->s);
        }
        case 'R': return reduce();
        case 0x81: { // NEWOBJ: cls.__new__(cls, *args)
            PV args, cls;
            if (!pop(&args) || !pop(&cls))
                return false;
            if (cls->kind == PickleValue::Kind::Global && cls->s == "collections.OrderedDict")
                return push(make(PickleValue::Kind::Dict));
            if (cls->kind == PickleValue::Kind::Global && cls->s == "torch_xla.utils.serialization.TensorReference") {
                PV r = make(PickleValue::Kind::Reference);
                if (r)
                    r->i = -1;
                return push(std::move(r));
            }
            if (dcp && cls->kind == PickleValue::Kind::Global && dcpClass(cls->s)) {
                PV o = make(PickleValue::Kind::Object);
                if (!o || !charge(cls->s.size()))
                    return false;
                o->s = cls->s;
                o->b = false;  // set once BUILD has given it its state
                return push(std::move(o));
            }
            return fail("refused: the pickle creates an object of " +
                        (cls->kind == PickleValue::Kind::Global ? cls->s.substr(0, 200) : std::string("an unknown class")));
        }
        case 'b': { // BUILD: state for the object below; ordered dicts carry _metadata, which we keep aside
            PV state;
            if (!pop(&state))
                return false;
            const PickleValue *obj = top();
            if (!obj)
                return fail("malformed pickle: BUILD");
            if (obj->kind == PickleValue::Kind::Reference) {  // {"tid": n}, set once
                const PickleValue *tid = state->kind == PickleValue::Kind::Dict ? state->get("tid") : nullptr;
                if (obj->i != -1 || !tid || tid->kind != PickleValue::Kind::Int || tid->i < 0 || tid->i > INT32_MAX)
                    return fail("malformed xser tensor reference (its tid is not a number from 0 to 2^31 - 1)");
                stack.back()->i = tid->i;
                return true;
            }
            if (obj->kind == PickleValue::Kind::Object)
                return buildObject(state);
            if (obj->kind != PickleValue::Kind::Dict && obj->kind != PickleValue::Kind::Tensor)
                return fail("refused: the pickle sets the state of an object Ingot does not know");
            return true;
        }
        case 'Q': { // BINPERSID
            PV pid;
            return pop(&pid) && persistentLoad(pid);
        }
        default: {
            const char *h = "0123456789abcdef";
            return fail(std::string("unsupported pickle opcode 0x") + h[op >> 4] + h[op & 15]);
        }
        }
    }

    // A DCP dataclass's state, given once: its fields (a dict with string keys) or TensorProperties' tuple.
    bool buildObject(const PV &state)
    {
        PickleValue &o = *stack.back();
        if (o.b)
            return fail("malformed DCP metadata: the state of a " + o.s + " is set twice");
        o.b = true;
        if (state->kind == PickleValue::Kind::Dict) {
            for (const auto &[k, v] : state->dict)
                if (!k || !k->isStr())
                    return fail("malformed DCP metadata: a field of " + o.s + " is not named by a string");
            if (!charge(state->dict.size() * 2 * sizeof(PV)))
                return false;
            o.dict = state->dict;
            return true;
        }
        if (state->kind == PickleValue::Kind::Tuple)
            return fill(&o.items, std::vector<PV>(state->items));
        return fail("malformed DCP metadata: the state of a " + o.s + " is neither fields nor a tuple");
    }

    bool run(PV *result)
    {
        while (pos < in.size()) {
            const unsigned char op = static_cast<unsigned char>(in[pos++]);
            bool stop = false;
            if (!step(op, result, &stop))
                return fail("malformed pickle");  // keeps the first, more precise, error
            if (stop)
                return true;
        }
        return fail("the pickle ends without STOP: truncated or corrupt");
    }
};

}  // namespace

std::size_t defaultPickleBudget(std::size_t inputBytes)
{
    const std::size_t base = std::size_t(16) << 20, perByte = 64, cap = std::size_t(1) << 30;
    return inputBytes >= (cap - base) / perByte ? cap : base + perByte * inputBytes;
}

PickleResult unpickle(std::string_view data)
{
    return unpickle(data, defaultPickleBudget(data.size()));
}

namespace {
PickleResult unpickleWith(std::string_view data, std::size_t maxBytes, bool dcp)
{
    PickleResult r;
    r.arena = std::make_shared<PickleArena>();
    {
        Machine m{r.arena, data, 0, maxBytes, {}, {}, {}, {}, {}};
        m.dcp = dcp;
        if (!m.run(&r.value))
            r.error = m.error;
    }  // the stack and memo go while the arena still holds every container
    return r;
}
}  // namespace

PickleResult unpickle(std::string_view data, std::size_t maxBytes)
{
    return unpickleWith(data, maxBytes, false);
}

PickleResult unpickleDcpMetadata(std::string_view data)
{
    // Each chunk of a DCP tensor is some 20 small objects for about 100 bytes of pickle: twice the bytes per byte
    // of a torch.save pickle (a real .metadata of 46,000 chunks: 7 MB of pickle).
    const std::size_t base = std::size_t(16) << 20, perByte = 128, cap = std::size_t(2) << 30;
    return unpickleWith(data, data.size() >= (cap - base) / perByte ? cap : base + perByte * data.size(), true);
}

}  // namespace ingot
