// The node operations behind std::list, which libstdc++ keeps out of line
// (list.cc): a list is a ring of nodes through a header, which an empty
// list's header closes on itself; std::list's inline code keeps the size
// and calls these to link and unlink.
#include <list>
#include <utility>

namespace std _GLIBCXX_VISIBILITY(default) {
namespace __detail {

using Node = _List_node_base;

// _M_hook links this node in before position.
void Node::_M_hook(Node *const position) noexcept {
	_M_next = position;
	_M_prev = position->_M_prev;
	position->_M_prev->_M_next = this;
	position->_M_prev = this;
}

// _M_unhook unlinks this node from its ring.
void Node::_M_unhook() noexcept {
	_M_prev->_M_next = _M_next;
	_M_next->_M_prev = _M_prev;
}

// swap exchanges the contents of the lists whose headers are x and y: the
// pointers change places, then each list's first and last nodes point back
// at their new header, or a header left empty closes on itself.
void Node::swap(Node &x, Node &y) noexcept {
	bool xEmpty = x._M_next == &x, yEmpty = y._M_next == &y;
	std::swap(x._M_next, y._M_next);
	std::swap(x._M_prev, y._M_prev);
	for (auto [h, wasEmpty] : {std::pair<Node *, bool>{&x, yEmpty}, {&y, xEmpty}}) {
		if (wasEmpty) {
			h->_M_next = h->_M_prev = h;
		} else {
			h->_M_next->_M_prev = h;
			h->_M_prev->_M_next = h;
		}
	}
}

// _M_transfer moves the nodes [first, last) of some ring (this one or
// another) in before this node: splice.
void Node::_M_transfer(Node *const first, Node *const last) noexcept {
	if (first == last || this == last || this == first)
		return;
	Node *before = first->_M_prev, *end = last->_M_prev;
	before->_M_next = last;
	last->_M_prev = before;
	Node *prev = _M_prev;
	prev->_M_next = first;
	first->_M_prev = prev;
	end->_M_next = this;
	_M_prev = end;
}

// _M_reverse reverses the ring whose header is this node.
void Node::_M_reverse() noexcept {
	Node *n = this;
	do {
		std::swap(n->_M_next, n->_M_prev);
		n = n->_M_prev; // the old next
	} while (n != this);
}

} // namespace __detail
} // namespace std
