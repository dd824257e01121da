// Package localfile reads and writes the files a user names on the command line, safely
// whatever is at the path.
//
// Write writes only to a new file or over a regular file, through a temporary file renamed
// into place; it refuses to replace a symbolic link, a device, a FIFO, a socket or a
// directory. Open reads a regular file as usual, and anything else (a FIFO, a pipe, a
// terminal) within a context: a FIFO that no process opens, or a pipe that stays open with
// no data, fails when the context ends instead of holding the command for ever.
package localfile
