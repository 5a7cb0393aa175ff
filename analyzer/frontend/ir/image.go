package ir

import "fmt"

// A program's image: the lowered program as bytes (codec.go), which a
// cache of lowered programs keeps so that a program that has not changed
// is decoded rather than lowered again.

// EncodeProgram returns p's image.
func EncodeProgram(p *Program) []byte {
	img := programImage{Funcs: p.Funcs, Globals: p.Globals, Locs: p.Locs, Messages: p.Messages, NumStatic: p.NumStatic,
		Aliases: map[string]uint32{}}
	for name, fn := range p.byName {
		if name != fn.Name {
			img.Aliases[name] = fn.ID
		}
	}
	return encodeProgram(nil, &img)
}

// DecodeProgram returns the program whose image data is (EncodeProgram),
// its functions' compact form made again (it is not in the image).
func DecodeProgram(data []byte) (*Program, error) {
	c, callees, err := decodeProgram(data)
	if err != nil {
		return nil, err
	}
	p := &Program{Funcs: c.Funcs, Globals: c.Globals, Locs: c.Locs, Messages: c.Messages, NumStatic: c.NumStatic,
		byName: map[string]*Function{}, globalName: map[string]*Global{}}
	p.FuncOf = make([]*Function, c.NumStatic)
	p.GlobalOf = make([]*Global, c.NumStatic)
	for _, fn := range p.Funcs {
		if int(fn.ID) >= len(p.FuncOf) {
			return nil, fmt.Errorf("cached program: function id %d past %d", fn.ID, c.NumStatic)
		}
		p.FuncOf[fn.ID] = fn
		p.byName[fn.Name] = fn
	}
	for _, g := range p.Globals {
		if int(g.ID) >= len(p.GlobalOf) {
			return nil, fmt.Errorf("cached program: global id %d past %d", g.ID, c.NumStatic)
		}
		p.GlobalOf[g.ID] = g
		p.globalName[g.Name] = g
	}
	for name, id := range c.Aliases {
		if int(id) < len(p.FuncOf) && p.FuncOf[id] != nil {
			p.byName[name] = p.FuncOf[id]
		}
	}
	for i, fn := range p.Funcs {
		for k, id := range callees[i] {
			if id != 0 {
				if int(id) >= len(p.FuncOf) || p.FuncOf[id] == nil {
					return nil, fmt.Errorf("cached program: %s calls unknown function id %d", fn.Name, id)
				}
				fn.Insts[k].Callee = p.FuncOf[id]
			}
		}
		BuildCode(fn)
	}
	return p, nil
}
