package sql

// CountParams is the number of ? placeholders in one statement, parsed as
// this session's sql_mode reads it.
func (s *Session) CountParams(query string) (int, error) {
	p, err := s.database.plans.Get(query, s.SQLMode().ParserMode())
	if err != nil {
		return 0, err
	}
	return p.Params, nil
}
