package libc

import "strings"

// Positional arguments (POSIX printf's %n$ and *m$): a translated format
// string names its arguments by number, in the order the translation
// needs ("%2$s-%1$d"). The arguments are still passed, and a va_list
// still read, in order; so a format that numbers its conversions reads
// every argument up to the highest number first, each as the conversions
// that name it say (a double, a long double or a word), and then serves
// each conversion the argument it names.

// positionalArgs serves arguments read ahead by their number.
type positionalArgs struct {
	vals []uint64
	at   int // the argument next serves, from 0
}

func (p *positionalArgs) next(wantFloat, long bool) (uint64, error) {
	if p.at < 0 || p.at >= len(p.vals) {
		return 0, nil // no such argument: undefined; glibc reads garbage
	}
	v := p.vals[p.at]
	p.at++
	return v, nil
}

// seek makes the argument numbered n (from 1) the next one served.
func (p *positionalArgs) seek(n int) { p.at = n - 1 }

// argNumber reads "n$" at fmt[i:], returning n and the index after the
// '$'; ok is false when fmt[i:] does not start so.
func argNumber(fmt string, i int) (n, end int, ok bool) {
	j := i
	for ; j < len(fmt) && fmt[j] >= '0' && fmt[j] <= '9'; j++ {
		n = n*10 + int(fmt[j]-'0')
		if n > 1<<16 {
			return 0, i, false
		}
	}
	if j == i || j >= len(fmt) || fmt[j] != '$' || n == 0 {
		return 0, i, false
	}
	return n, j + 1, true
}

// argKind is how an argument is read from a va_list.
type argKind uint8

const (
	argWord argKind = iota
	argDouble
	argLongDouble
)

// positionalKinds returns the kind of each argument a format numbers
// (index 0 is argument 1), or nil when it numbers none.
func positionalKinds(fmt string) []argKind {
	var kinds []argKind
	use := func(n int, k argKind) {
		for len(kinds) < n {
			kinds = append(kinds, argWord)
		}
		if k != argWord {
			kinds[n-1] = k
		}
	}
	for i := 0; i < len(fmt); i++ {
		if fmt[i] != '%' {
			continue
		}
		i++
		n, j, ok := argNumber(fmt, i)
		if !ok {
			if i < len(fmt) && fmt[i] == '%' {
				continue
			}
			return nil // a format mixes numbered and unnumbered conversions only in error
		}
		i = j
		for i < len(fmt) && strings.IndexByte("-+ #0'", fmt[i]) >= 0 {
			i++
		}
		for star := 0; star < 2; star++ { // the width, then the precision
			if star == 1 && i < len(fmt) && fmt[i] == '.' {
				i++
			}
			if i < len(fmt) && fmt[i] == '*' {
				if w, j, ok := argNumber(fmt, i+1); ok {
					use(w, argWord)
					i = j
				}
			}
			for i < len(fmt) && fmt[i] >= '0' && fmt[i] <= '9' {
				i++
			}
		}
		start := i
		for i < len(fmt) && strings.IndexByte("hlLqjzt", fmt[i]) >= 0 {
			i++
		}
		if i >= len(fmt) {
			break
		}
		kind := argWord
		if strings.IndexByte("fFeEgGaA", fmt[i]) >= 0 {
			kind = argDouble
			if fmt[start:i] == "L" {
				kind = argLongDouble
			}
		}
		use(n, kind)
	}
	return kinds
}

// readPositional reads the arguments kinds describes from args, in order.
func readPositional(kinds []argKind, args argSource) (*positionalArgs, error) {
	p := &positionalArgs{vals: make([]uint64, len(kinds))}
	for i, k := range kinds {
		v, err := args.next(k != argWord, k == argLongDouble)
		if err != nil {
			return nil, err
		}
		p.vals[i] = v
	}
	return p, nil
}
