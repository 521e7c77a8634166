"""Two or more runs side by side: computed once, said in words, drawn and exported."""
