// grammar/TikZ.g4: one TikZ path statement after macro expansion (pgfmanual part III, 14-17).
// The C++ side (parser.cpp) splits a text at top-level ';' and feeds one statement at a time,
// so recovery is simply "drop this statement, continue with the next".
// Balanced groups are single lexer tokens; their insides (options, coordinates, node text)
// are decomposed in C++ (coordinate.cpp), which keeps this grammar small and SLL-friendly.
grammar TikZ;

// ---------------------------------------------------------------- statements
// Coordinates and targets are written inline as `(PLUS | PLUSPLUS)? PAREN` and `... | CYCLE`
// instead of rules of their own: every rule invocation costs the ANTLR runtime a context
// object, and a path statement is mostly coordinates (parser.cpp reads them back in order).
// Every alternative of `element` starts with its own token, so prediction is LL(1); the
// option list right after \draw is an ordinary `[opts]` element that parser.cpp promotes to
// Statement::options. (`-| plot`, `|- plot` are accepted here; parser.cpp reports them.)

statement
  : PATH_CMD element* SEMI EOF                          # pathStatement
  | NODE_CMD nodeSpec element* SEMI EOF                 # nodeStatement
  | COORD_CMD coordSpec element* SEMI EOF               # coordinateStatement
  | PIC_CMD nodeSpec element* SEMI EOF                  # picStatement
  ;

// ---------------------------------------------------------------- path operations

element
  : (PLUS | PLUSPLUS)? PAREN                                                   # moveOp
  | (LINE | HV | VH) midNode*
    ((PLUS | PLUSPLUS)? PAREN | CYCLE | PLOT OPTIONS* plotSource)              # lineOp
  | DOTS midNode* CONTROLS (PLUS | PLUSPLUS)? PAREN (AND (PLUS | PLUSPLUS)? PAREN)? DOTS
    midNode* ((PLUS | PLUSPLUS)? PAREN | CYCLE)                                # curveOp
  | RECTANGLE midNode* (PLUS | PLUSPLUS)? PAREN                                # rectangleOp
  | (CIRCLE | ELLIPSE | ARC) OPTIONS* PAREN?                                   # roundOp
  | GRID OPTIONS* midNode* (PLUS | PLUSPLUS)? PAREN                            # gridOp
  | PARABOLA OPTIONS* (BEND (PLUS | PLUSPLUS)? PAREN)? midNode*
    ((PLUS | PLUSPLUS)? PAREN | CYCLE)                                         # parabolaOp
  | (SIN | COS) OPTIONS* midNode* (PLUS | PLUSPLUS)? PAREN                     # sineOp
  | (TO | EDGE) OPTIONS* midNode* ((PLUS | PLUSPLUS)? PAREN | CYCLE)           # toOp
  | PLOT OPTIONS* plotSource                                                   # plotOp
  | NODE nodeSpec                                                              # nodeOp
  | COORDINATE coordSpec                                                       # coordinateOp
  | PIC nodeSpec                                                               # picOp
  | LET letBinding (COMMA letBinding)* IN                                      # letOp
  | OPTIONS                                                                    # optionsOp
  | unknown                                                                    # unknownOp
  ;

// A node or coordinate written between an operation and its target: `-- node{x} (1,0)`.
midNode
  : NODE nodeSpec
  | COORDINATE coordSpec
  | PIC nodeSpec
  ;

// node / pic: options, (name) and `at (c)` in any order, then the text in braces.
nodeSpec
  : (OPTIONS | PAREN | AT (PLUS | PLUSPLUS)? PAREN | animation | foreachClause)* BRACED
  ;

// pgfmanual 26 (animations): `:fill = {0s="red", 2s="blue"}`; kept only as an unsupported span.
animation : COLON WORD* EQ BRACED ;

// `foreach \x/\y [count=\i] in {..}` that the expander left (node foreach, path foreach).
foreachClause : FOREACH (CS | OTHER | OPTIONS)* IN BRACED ;

// coordinate: no text, so at most one (name) to keep `coordinate (a) (1,0)` unambiguous.
coordSpec
  : OPTIONS* (PAREN OPTIONS*)? (AT (PLUS | PLUSPLUS)? PAREN OPTIONS*)?
  ;

plotSource
  : COORDINATES BRACED                 # plotCoordinates
  | FILE BRACED                        # plotFile
  | FUNCTION BRACED                    # plotFunction
  | (PLUS | PLUSPLUS)? PAREN           # plotExpression
  ;

// let \p1 = (A), \n1 = {veclen(\x1,\y1)} in
letBinding : CS (NUMBER | WORD | BRACED)? EQ (PAREN | BRACED) ;

// Anything else keeps its span so lowering can report an unsupported operation:
// decorate[...]{...}, svg{...}, \pgfextra{...}, child{...}, foreach leftovers. Stray
// characters, numbers, '=' and ',' are syntax errors, as they are for TikZ.
unknown
  : animation
  | foreachClause BRACED?
  | (WORD | CS) OPTIONS? BRACED*
  | BRACED
  | IN
  ;

// ---------------------------------------------------------------- tokens

PATH_CMD  : '\\' ('draw' | 'path' | 'fill' | 'filldraw' | 'shade' | 'shadedraw' | 'clip'
                 | 'useasboundingbox') ;
NODE_CMD  : '\\' ('node' | 'matrix') ;
COORD_CMD : '\\coordinate' ;
PIC_CMD   : '\\pic' ;
CS        : '\\' ([a-zA-Z@]+ | ~[a-zA-Z@]) ;

// Balanced groups; `\{`, `\}` and friends are TeX control symbols, not group delimiters.
BRACED  : '{' (BRACED | ESC | ~[{}\\])* '}' ;
OPTIONS : '[' (BRACED | OPTIONS | ESC | ~[[\]{}\\])* ']' ;
PAREN   : '(' (PAREN | BRACED | ESC | ~[(){}\\])* ')' ;
fragment ESC : '\\' . ;

LINE     : '--' ;
HV       : '|-' ;
VH       : '-|' ;
DOTS     : '..' ;
PLUSPLUS : '++' ;
PLUS     : '+' ;
SEMI     : ';' ;
COMMA    : ',' ;
COLON    : ':' ;
EQ       : '=' ;

CYCLE       : 'cycle' ;
CONTROLS    : 'controls' ;
AND         : 'and' ;
RECTANGLE   : 'rectangle' ;
CIRCLE      : 'circle' ;
ELLIPSE     : 'ellipse' ;
ARC         : 'arc' ;
GRID        : 'grid' ;
PARABOLA    : 'parabola' ;
BEND        : 'bend' ;
SIN         : 'sin' ;
COS         : 'cos' ;
TO          : 'to' ;
EDGE        : 'edge' ;
PLOT        : 'plot' ;
COORDINATES : 'coordinates' ;
FILE        : 'file' ;
FUNCTION    : 'function' ;
NODE        : 'node' ;
COORDINATE  : 'coordinate' ;
PIC         : 'pic' ;
AT          : 'at' ;
LET         : 'let' ;
FOREACH     : 'foreach' ;
IN          : 'in' ;

WORD   : [a-zA-Z]+ ;
NUMBER : [0-9]+ ('.' [0-9]*)? | '.' [0-9]+ ;

WS      : [ \t\r\n\f]+ -> skip ;
COMMENT : '%' ~[\r\n]* -> skip ;

// Unmatched group delimiters: a group token could not close, so the longest match is one char.
STRAY : [{}()[\]$] ;
OTHER : . ;
