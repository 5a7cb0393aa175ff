// std::pmr's resources, which libstdc++'s <memory_resource> declares and
// its library defines: the default resource and its setter, new_delete and
// null resources, monotonic_buffer_resource's buffers, and the pool
// resources. The pools here keep no pools: every block comes from the
// upstream resource and is recorded, so release() and the destructor give
// back what is still out, and deallocate gives a block back at once. A
// program sees the same allocations succeed and fail and the same options
// as natively (libstdc++'s normalization of pool_options); only where
// blocks lie differs.
#include <atomic>
#include <memory_resource>
#include <mutex>
#include <new>

namespace std _GLIBCXX_VISIBILITY(default) {
namespace pmr {

memory_resource::~memory_resource() = default;

namespace {
struct NewDelete final : memory_resource {
	void *do_allocate(size_t bytes, size_t align) override { return ::operator new(bytes, align_val_t(align)); }
	void do_deallocate(void *p, size_t bytes, size_t align) override {
		(void)bytes;
		::operator delete(p, align_val_t(align));
	}
	bool do_is_equal(const memory_resource &o) const noexcept override { return &o == this; }
};

struct Null final : memory_resource {
	void *do_allocate(size_t, size_t) override { throw bad_alloc(); }
	void do_deallocate(void *, size_t, size_t) override {}
	bool do_is_equal(const memory_resource &o) const noexcept override { return &o == this; }
};

NewDelete newDelete;
Null null;
atomic<memory_resource *> defaultResource{&newDelete};
} // namespace

memory_resource *new_delete_resource() noexcept { return &newDelete; }
memory_resource *null_memory_resource() noexcept { return &null; }

memory_resource *set_default_resource(memory_resource *r) noexcept {
	return defaultResource.exchange(r != nullptr ? r : &newDelete);
}
memory_resource *get_default_resource() noexcept { return defaultResource.load(); }

// A _Chunk is one buffer monotonic_buffer_resource took from upstream.
class monotonic_buffer_resource::_Chunk {
public:
	void *buf;
	size_t size, align;
	_Chunk *next;
};

monotonic_buffer_resource::~monotonic_buffer_resource() { release(); }

// _M_new_buffer takes from upstream a buffer that holds bytes at alignment
// at its start, of at least the next buffer size, which then grows.
void monotonic_buffer_resource::_M_new_buffer(size_t bytes, size_t alignment) {
	size_t size = bytes > _M_next_bufsiz ? bytes : _M_next_bufsiz;
	size_t align = alignment > alignof(max_align_t) ? alignment : alignof(max_align_t);
	void *buf = _M_upstream->allocate(size, align);
	_Chunk *c = static_cast<_Chunk *>(_M_upstream->allocate(sizeof(_Chunk), alignof(_Chunk)));
	*c = _Chunk{buf, size, align, _M_head};
	_M_head = c;
	_M_current_buf = buf;
	_M_avail = size;
	_M_next_bufsiz = _S_next_bufsize(size);
}

void monotonic_buffer_resource::_M_release_buffers() noexcept {
	while (_Chunk *c = _M_head) {
		_M_head = c->next;
		_M_upstream->deallocate(c->buf, c->size, c->align);
		_M_upstream->deallocate(c, sizeof(_Chunk), alignof(_Chunk));
	}
}

struct __pool_resource::_BigBlock {
	void *p;
	size_t bytes, align;
};

namespace {
// normalize is libstdc++'s adjustment of pool_options: defaults for zeros,
// blocks per chunk a multiple of four up to 524287, the largest pooled
// block a multiple of eight between 64 and 4 MiB.
pool_options normalize(pool_options o) {
	if (o.max_blocks_per_chunk == 0)
		o.max_blocks_per_chunk = 16384;
	else if (o.max_blocks_per_chunk > 524287)
		o.max_blocks_per_chunk = 524287;
	else
		o.max_blocks_per_chunk = (o.max_blocks_per_chunk + 3) & ~size_t(3);
	if (o.largest_required_pool_block == 0) {
		o.largest_required_pool_block = 4096;
	} else {
		size_t r = (o.largest_required_pool_block + 7) & ~size_t(7);
		o.largest_required_pool_block = r < 64 ? 64 : r > (size_t(1) << 22) ? size_t(1) << 22 : r;
	}
	return o;
}
} // namespace

__pool_resource::__pool_resource(const pool_options &opts, memory_resource *upstream)
    : _M_opts(normalize(opts)), _M_unpooled(upstream), _M_npools(0) {}

__pool_resource::~__pool_resource() { release(); }

void *__pool_resource::allocate(size_t bytes, size_t alignment) {
	void *p = resource()->allocate(bytes, alignment);
	_M_unpooled.push_back(_BigBlock{p, bytes, alignment});
	return p;
}

void __pool_resource::deallocate(void *p, size_t bytes, size_t alignment) {
	for (auto it = _M_unpooled.begin(); it != _M_unpooled.end(); ++it) {
		if (it->p == p) {
			_M_unpooled.erase(it);
			break;
		}
	}
	resource()->deallocate(p, bytes, alignment);
}

void __pool_resource::release() noexcept {
	for (const _BigBlock &b : _M_unpooled)
		resource()->deallocate(b.p, b.bytes, b.align);
	_M_unpooled.clear();
}

unsynchronized_pool_resource::unsynchronized_pool_resource(const pool_options &opts, memory_resource *upstream)
    : _M_impl(opts, upstream) {}
unsynchronized_pool_resource::~unsynchronized_pool_resource() = default;
void unsynchronized_pool_resource::release() { _M_impl.release(); }
void *unsynchronized_pool_resource::do_allocate(size_t bytes, size_t alignment) {
	return _M_impl.allocate(bytes, alignment);
}
void unsynchronized_pool_resource::do_deallocate(void *p, size_t bytes, size_t alignment) {
	_M_impl.deallocate(p, bytes, alignment);
}

// The synchronized resource serves every thread under its one mutex:
// libstdc++'s keeps pools per thread, which no program can tell apart.
synchronized_pool_resource::synchronized_pool_resource(const pool_options &opts, memory_resource *upstream)
    : _M_impl(opts, upstream), _M_key() {}
synchronized_pool_resource::~synchronized_pool_resource() = default;
void synchronized_pool_resource::release() {
	lock_guard<shared_mutex> l(_M_mx);
	_M_impl.release();
}
void *synchronized_pool_resource::do_allocate(size_t bytes, size_t alignment) {
	lock_guard<shared_mutex> l(_M_mx);
	return _M_impl.allocate(bytes, alignment);
}
void synchronized_pool_resource::do_deallocate(void *p, size_t bytes, size_t alignment) {
	lock_guard<shared_mutex> l(_M_mx);
	_M_impl.deallocate(p, bytes, alignment);
}

} // namespace pmr
} // namespace std
