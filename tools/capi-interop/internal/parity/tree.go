package parity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// node is a JSON value that keeps what encoding/json's own types lose and the corpus needs: key order, keys given
// twice, the text of number literals, and raw text put in as it is (a value nested 100,000 deep).
type node struct {
	kind  byte // 'o' object, 'a' array, 'r' raw JSON text (numbers, strings, true, false, null and injected values)
	keys  []string
	items []*node // an object's values (parallel to keys) or an array's elements
	raw   string
}

func raw(text string) *node { return &node{kind: 'r', raw: text} }

func str(s string) *node {
	b, _ := json.Marshal(s)
	return raw(string(b))
}

// parse reads a JSON document into a tree (number literals are kept as they are written).
func parse(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the document")
	}
	return n, nil
}

func parseValue(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n := &node{kind: 'o'}
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				value, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key.(string))
				n.items = append(n.items, value)
			}
			_, err := dec.Token()
			return n, err
		}
		n := &node{kind: 'a'}
		for dec.More() {
			value, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, value)
		}
		_, err := dec.Token()
		return n, err
	case json.Number:
		return raw(t.String()), nil
	case string:
		return str(t), nil
	case bool:
		return raw(strconv.FormatBool(t)), nil
	default:
		return raw("null"), nil
	}
}

// write appends the JSON text of the tree.
func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, key := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(key)
			b.Write(k)
			b.WriteByte(':')
			n.items[i].write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, item := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			item.write(b)
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.raw)
	}
}

func (n *node) bytes() []byte {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

// copy is a deep copy (raw text is shared: it is never changed in place).
func (n *node) copy() *node {
	if n.kind == 'r' {
		return n
	}
	c := &node{kind: n.kind, keys: append([]string(nil), n.keys...), items: make([]*node, len(n.items))}
	for i, item := range n.items {
		c.items[i] = item.copy()
	}
	return c
}

// get returns an object's value for a key (the first when the key is given twice), or nil.
func (n *node) get(key string) *node {
	for i, k := range n.keys {
		if k == key {
			return n.items[i]
		}
	}
	return nil
}

// set replaces an object's value for a key, or appends the key.
func (n *node) set(key string, value *node) {
	for i, k := range n.keys {
		if k == key {
			n.items[i] = value
			return
		}
	}
	n.keys = append(n.keys, key)
	n.items = append(n.items, value)
}
