package graphql

// EachFacetRow reads an NRQL result array of faceted rows, such as the applications'
// inventory ([{"facet":[appId, host, realAgentId], "lastSeen": ms, ...}, ...]), in one
// pass over data: row is called with each row's facet values as written (the JSON text
// of each, slices of data: valid until data changes; the facet slice itself only
// during the call) and its lastSeen. It returns the number of rows.
//
// It decodes what goccy/go-json (and encoding/json) decode into
// []struct{Facet []json.RawMessage; LastSeen float64} and refuses what they refuse
// (TestFacetRowsAgree, FuzzFacetRows): JSON null is no rows; a null row is a row
// without facets; keys match case-insensitively; unknown keys are skipped; a later
// duplicate key wins. On an error, rows already passed to row are to be discarded
// by the caller (a decoder refuses the whole array).
func EachFacetRow(data []byte, row func(facet [][]byte, lastSeen float64)) (int, error) {
	s := scanner{b: data}
	if s.peek() == 0 {
		return 0, errEnd
	}
	if null, err := s.null(); null || err != nil {
		if err != nil {
			return 0, err
		}
		return 0, s.end()
	}
	if s.peek() != '[' {
		if err := s.skip(); err != nil {
			return 0, err
		}
		return 0, errNotArray
	}
	var facet [][]byte
	n := 0
	err := s.array(func(s *scanner) error {
		n++
		facet = facet[:0]
		var lastSeen float64
		switch s.peek() {
		case 'n':
			if err := s.literal("null"); err != nil {
				return err
			}
		case '{':
			err := s.object(func(s *scanner, key []byte) error {
				switch {
				case keyIs(key, "facet"):
					facet = facet[:0]
					if null, err := s.null(); null || err != nil {
						return err
					}
					if s.peek() != '[' {
						return s.typeError("array")
					}
					return s.array(func(s *scanner) error {
						v, err := s.value()
						facet = append(facet, v)
						return err
					})
				case keyIs(key, "lastSeen"):
					return s.float(&lastSeen)
				}
				return nil
			})
			if err != nil {
				return err
			}
		default:
			return s.typeError("object")
		}
		row(facet, lastSeen)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, s.end()
}
