package srcexpr

import "testing"

func TestSpan(t *testing.T) {
	for _, c := range []struct {
		line string
		col  int
		want string
	}{
		{"\tx = 5;", 4, "x"},              // store: column at '='
		{"\ts.a = x + 1;", 8, "x"},        // read: column at the identifier
		{"\ts.a = x + 1;", 6, "s.a"},      // store to a member
		{"\ts.arr[2]++;", 10, "s.arr[2]"}, // increment: column at '++'
		{"\t++count;", 2, "count"},        // prefix increment
		{"\tp->next->val += 2;", 15, "p->next->val"},
		{"\t*p = 3;", 5, "*p"},
		{"\tif (buf != NULL) {", 6, "buf"},
		{"\tbuf[i + 1] = 0;", 13, "buf[i + 1]"},
		{"\ttotal = total + a[i].v;", 18, "a[i].v"},
		{"\tfree(buf);", 2, "free"},
		{"\treturn j->id;", 12, "j->id"}, // a member read: its column is the member's
		{"\tprintf(\"%d\", a[1].x);", 20, "a[1].x"},
		{"\ty = (*p).v;", 11, "v"}, // no chain to start from: the member alone
		{"\tfoo();", 40, "foo();"}, // column past the line: the whole statement
		{"\tx == 1;", 4, "="},      // a comparison is not an assignment
	} {
		s, e := Span(c.line, c.col)
		if got := c.line[s:e]; got != c.want {
			t.Errorf("Span(%q, %d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
}

func TestName(t *testing.T) {
	for _, c := range []struct {
		line string
		col  int
		want string
	}{
		{"\tpool->queue.len = 0;", 18, "pool->queue.len"},
		{"\ts.a = x + 1;", 8, "x"},
		{"\tmemcpy(dst, src, 16);", 2, ""}, // two names: which one the access is, the text cannot say
		{"\tprintf(\"%d, %s\", 3, q->name);", 2, "q->name"},
		{"\tputs(log_line(buf));", 2, ""}, // a call's result is no name
		{"\tprintf(\"(%d\\n\", total);", 2, "total"},
		{"\t*p = 3;", 5, ""},                                   // a dereference is not a name
		{"\tx = 5;", 0, ""},                                    // no column
		{"\tpthread_rwlock_rdlock(&tb->lock);", 2, "tb->lock"}, // the object whose address the call takes
		{"\tpthread_cond_wait(&c->cond, &c->lock);", 2, ""},    // a condition and a mutex: which one, the text cannot say
		{"\tscanf(\"%d\", & n);", 2, "n"},
	} {
		if got := Name(c.line, c.col); got != c.want {
			t.Errorf("Name(%q, %d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
}

// At a macro's place, only an argument whose address the text takes
// names memory: a plain one is a pointer the macro follows.
func TestMacroName(t *testing.T) {
	for _, c := range []struct {
		line string
		col  int
		want string
	}{
		{"\tDONE_SIGNAL(j);", 2, ""},
		{"\tLOCK(&q->lock);", 2, "q->lock"},
		{"\tTRACE(\"%d\", n, &log->mu);", 2, "log->mu"},
		{"\tcount++;", 2, "count"}, // no call: as Name
	} {
		if got := MacroName(c.line, c.col); got != c.want {
			t.Errorf("MacroName(%q, %d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
}

func TestCallee(t *testing.T) {
	for _, c := range []struct {
		line string
		col  int
		want string
	}{
		{"\tpthread_cond_signal(&c->cond);", 2, "pthread_cond_signal"},
		{"\tint err = pthread_mutex_lock (&guard);", 12, "pthread_mutex_lock"},
		{"\tint err = pthread_mutex_lock(&guard);", 14, ""}, // inside the name
		{"\tcount++;", 2, ""}, // no call
		{"\tx = y;", 40, ""},  // past the line
	} {
		if got := Callee(c.line, c.col); got != c.want {
			t.Errorf("Callee(%q, %d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
}

func TestIsName(t *testing.T) {
	for e, want := range map[string]bool{
		"book->entries": true,
		"s.arr[i + 1]":  true,
		"total":         true,
		"heap object allocated at a.c:3 (16 bytes, offset 0)": false,
		"free(buf)": false,
		"x = 1":     false,
		"a[i] = 2;": false,
		"":          false,
	} {
		if got := IsName(e); got != want {
			t.Errorf("IsName(%q) = %v, want %v", e, got, want)
		}
	}
}
