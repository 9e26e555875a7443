"""Search: our analysis on a Whoosh index, behind one small engine seam.

==================  ==============================================================
module              what
==================  ==============================================================
``checks``          input checks shared by the CLI and the API (``QueryError``)
``searcher``        :class:`Searcher`: generations, results, snippets outside locks
``strategy``        query words → OR groups; AND-then-OR, name bonus, tie order
``bm25f``           BM25F on postings (Whoosh's formula), NumPy, memory budget
``fuzzy``           keys within one or two edits (RapidFuzz)
``snippets``        the window of text around the matched words, escaped
``engine``          the engine interface: postings, field lengths, terms, documents
``whoosh_engine``   that interface on Whoosh's reader (reads Whoosh)
``index``           schema, analyzers, writing a generation (writes Whoosh)
``generations``     generation folders, the format file, the atomic switch
==================  ==============================================================
"""

from ..errors import IndexUnavailable, QueryError
from .checks import DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_CHARS, check_lang, check_limit, check_query
from .generations import generation_on_disk, generations_dir, publish
from .index import build_index, write_generation
from .searcher import Hit, Searcher, SearchResult
from .snippets import make_snippet, snippet_parts

__all__ = [
    "DEFAULT_LIMIT", "MAX_LIMIT", "MAX_QUERY_CHARS", "Hit", "IndexUnavailable", "QueryError", "SearchResult", "Searcher",
    "build_index", "check_lang", "check_limit", "check_query", "generation_on_disk", "generations_dir", "make_snippet", "publish",
    "snippet_parts", "write_generation",
]
