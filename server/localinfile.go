package server

import (
	"bytes"
	"context"
	"io"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/plrun/plrun/sqlerr"
)

// localInfile is LOAD DATA LOCAL INFILE's exchange (the protocol's
// LOCAL INFILE request): the server sends 0xFB and the file name, the
// client answers with the file's bytes in packets and an empty packet
// at the end (only an empty one when it cannot or will not send it). A
// client that did not announce CLIENT_LOCAL_FILES is refused with 1148,
// as MariaDB refuses it.
func (c *conn) localInfile(ctx context.Context, name string) (io.ReadCloser, error) {
	if c.wire == nil || !c.wire.hasCapability(mysql.CLIENT_LOCAL_FILES) {
		return nil, sqlerr.New(sqlerr.ErNotAllowedCommand, "The used command is not allowed with this plrun version")
	}
	// The client now sends data: the disconnect watch must not read it.
	c.stopWatch()
	if err := c.wire.writePacket(append([]byte{0xfb}, name...)); err != nil {
		return nil, err
	}
	var data bytes.Buffer
	for {
		p, err := c.wire.readPacket()
		if err != nil {
			return nil, err
		}
		if len(p) == 0 {
			return io.NopCloser(&data), nil
		}
		if err := ctx.Err(); err != nil {
			// Read to the end anyway: the protocol needs the exchange whole.
			continue
		}
		data.Write(p)
	}
}
