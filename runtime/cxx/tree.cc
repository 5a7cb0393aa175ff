// The red-black tree algorithms behind std::map and std::set, which
// libstdc++ keeps out of line (tree.cc). The tree has a header node: its
// parent is the root, its left the leftmost node, its right the rightmost,
// and it is red so that decrementing end() can tell it from the root.
// Insertion and erasure rebalance as in Cormen et al., chapter 13.
#include <map>

namespace std _GLIBCXX_VISIBILITY(default) {

namespace {
using Node = _Rb_tree_node_base;

bool isRed(const Node *n) { return n && n->_M_color == _S_red; }

// replaceChild makes n's parent (or the root) point at m instead of n.
void replaceChild(Node *n, Node *m, Node *&root) {
	if (n == root)
		root = m;
	else if (n == n->_M_parent->_M_left)
		n->_M_parent->_M_left = m;
	else
		n->_M_parent->_M_right = m;
}

void rotateLeft(Node *x, Node *&root) {
	Node *y = x->_M_right;
	x->_M_right = y->_M_left;
	if (y->_M_left)
		y->_M_left->_M_parent = x;
	y->_M_parent = x->_M_parent;
	replaceChild(x, y, root);
	y->_M_left = x;
	x->_M_parent = y;
}

void rotateRight(Node *x, Node *&root) {
	Node *y = x->_M_left;
	x->_M_left = y->_M_right;
	if (y->_M_right)
		y->_M_right->_M_parent = x;
	y->_M_parent = x->_M_parent;
	replaceChild(x, y, root);
	y->_M_right = x;
	x->_M_parent = y;
}

Node *increment(Node *x) {
	if (x->_M_right) {
		x = x->_M_right;
		while (x->_M_left)
			x = x->_M_left;
		return x;
	}
	Node *y = x->_M_parent;
	while (x == y->_M_right) {
		x = y;
		y = y->_M_parent;
	}
	// Incrementing the rightmost node of a tree whose root has no right
	// child climbs to the header, whose right is that node: stop there.
	return x->_M_right != y ? y : x;
}

Node *decrement(Node *x) {
	if (x->_M_color == _S_red && x->_M_parent->_M_parent == x)
		return x->_M_right; // end(): the header, whose right is the last node
	if (x->_M_left) {
		Node *y = x->_M_left;
		while (y->_M_right)
			y = y->_M_right;
		return y;
	}
	Node *y = x->_M_parent;
	while (x == y->_M_left) {
		x = y;
		y = y->_M_parent;
	}
	return y;
}

// fixAfterErase restores the colors after a black node was unlinked; x
// (possibly null) took its place under parent.
void fixAfterErase(Node *x, Node *parent, Node *&root) {
	while (x != root && !isRed(x)) {
		bool left = x == parent->_M_left;
		Node *w = left ? parent->_M_right : parent->_M_left;
		if (isRed(w)) {
			w->_M_color = _S_black;
			parent->_M_color = _S_red;
			left ? rotateLeft(parent, root) : rotateRight(parent, root);
			w = left ? parent->_M_right : parent->_M_left;
		}
		Node *near = left ? w->_M_left : w->_M_right, *far = left ? w->_M_right : w->_M_left;
		if (!isRed(near) && !isRed(far)) {
			w->_M_color = _S_red;
			x = parent;
			parent = parent->_M_parent;
			continue;
		}
		if (!isRed(far)) {
			near->_M_color = _S_black;
			w->_M_color = _S_red;
			left ? rotateRight(w, root) : rotateLeft(w, root);
			w = left ? parent->_M_right : parent->_M_left;
			far = left ? w->_M_right : w->_M_left;
		}
		w->_M_color = parent->_M_color;
		parent->_M_color = _S_black;
		if (far)
			far->_M_color = _S_black;
		left ? rotateLeft(parent, root) : rotateRight(parent, root);
		break;
	}
	if (x)
		x->_M_color = _S_black;
}
} // namespace

_Rb_tree_node_base *_Rb_tree_increment(_Rb_tree_node_base *x) throw() { return increment(x); }
const _Rb_tree_node_base *_Rb_tree_increment(const _Rb_tree_node_base *x) throw() {
	return increment(const_cast<Node *>(x));
}
_Rb_tree_node_base *_Rb_tree_decrement(_Rb_tree_node_base *x) throw() { return decrement(x); }
const _Rb_tree_node_base *_Rb_tree_decrement(const _Rb_tree_node_base *x) throw() {
	return decrement(const_cast<Node *>(x));
}

void _Rb_tree_insert_and_rebalance(const bool insertLeft, _Rb_tree_node_base *x, _Rb_tree_node_base *p,
                                   _Rb_tree_node_base &header) throw() {
	Node *&root = header._M_parent;
	x->_M_parent = p;
	x->_M_left = x->_M_right = nullptr;
	x->_M_color = _S_red;
	if (insertLeft) {
		p->_M_left = x; // also header.left when p is the header
		if (p == &header) {
			header._M_parent = x;
			header._M_right = x;
		} else if (p == header._M_left) {
			header._M_left = x;
		}
	} else {
		p->_M_right = x;
		if (p == header._M_right)
			header._M_right = x;
	}
	while (x != root && isRed(x->_M_parent)) {
		Node *parent = x->_M_parent, *grand = parent->_M_parent;
		bool left = parent == grand->_M_left;
		Node *uncle = left ? grand->_M_right : grand->_M_left;
		if (isRed(uncle)) {
			parent->_M_color = uncle->_M_color = _S_black;
			grand->_M_color = _S_red;
			x = grand;
			continue;
		}
		if (x == (left ? parent->_M_right : parent->_M_left)) {
			x = parent;
			left ? rotateLeft(x, root) : rotateRight(x, root);
		}
		x->_M_parent->_M_color = _S_black;
		grand->_M_color = _S_red;
		left ? rotateRight(grand, root) : rotateLeft(grand, root);
	}
	root->_M_color = _S_black;
}

_Rb_tree_node_base *_Rb_tree_rebalance_for_erase(_Rb_tree_node_base *const z, _Rb_tree_node_base &header) throw() {
	Node *&root = header._M_parent, *&leftmost = header._M_left, *&rightmost = header._M_right;
	Node *y = z, *x, *xParent;
	if (!z->_M_left)
		x = z->_M_right;
	else if (!z->_M_right)
		x = z->_M_left;
	else {
		y = z->_M_right; // z has two children: its successor takes its place
		while (y->_M_left)
			y = y->_M_left;
		x = y->_M_right;
	}
	if (y != z) {
		z->_M_left->_M_parent = y;
		y->_M_left = z->_M_left;
		if (y != z->_M_right) {
			xParent = y->_M_parent;
			if (x)
				x->_M_parent = y->_M_parent;
			y->_M_parent->_M_left = x;
			y->_M_right = z->_M_right;
			z->_M_right->_M_parent = y;
		} else {
			xParent = y;
		}
		replaceChild(z, y, root);
		y->_M_parent = z->_M_parent;
		std::swap(y->_M_color, z->_M_color);
		y = z; // the node unlinked, with the color removed from the tree
	} else {
		xParent = z->_M_parent;
		if (x)
			x->_M_parent = z->_M_parent;
		replaceChild(z, x, root);
		if (leftmost == z)
			leftmost = z->_M_right ? _Rb_tree_node_base::_S_minimum(x) : z->_M_parent;
		if (rightmost == z)
			rightmost = z->_M_left ? _Rb_tree_node_base::_S_maximum(x) : z->_M_parent;
	}
	if (y->_M_color != _S_red)
		fixAfterErase(x, xParent, root);
	return y;
}

unsigned int _Rb_tree_black_count(const _Rb_tree_node_base *node, const _Rb_tree_node_base *root) throw() {
	unsigned n = 0;
	for (; node; node = node->_M_parent) {
		if (node->_M_color == _S_black)
			n++;
		if (node == root)
			break;
	}
	return n;
}

} // namespace std
