dtrace -xerrtags -s syntax_unterminated_clause.d
