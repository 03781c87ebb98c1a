package ui

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// profilesKey is the file, beside the profiles, of the key that seals
// their passwords: 32 random bytes, readable by its owner only (0600),
// made when the first password is saved. The profiles' files hold no
// password in clear, so a profile copied, shown or backed up without
// the key gives none away; whoever can read the key can read them, as
// whoever runs dbgauge ui must.
const profilesKey = ".dbgauge-ui/profiles.key"

// sealer seals and opens the secrets of saved profiles with AES-256-GCM
// under the key of a directory of runs.
type sealer struct{ path string }

// key reads the key, or makes it when create is set and there is none.
func (s sealer) key(create bool) ([]byte, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
			return nil, err
		}
		b = make32()
		f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) { // another request made it meanwhile
			return s.key(false)
		}
		if err != nil {
			return nil, err
		}
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(s.path)
			return nil, err
		}
		return b, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the key of the saved passwords: %w", err)
	}
	if len(b) != 32 {
		return nil, fmt.Errorf("the key of the saved passwords, %s, is not 32 bytes", s.path)
	}
	return b, nil
}

func make32() []byte {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand panics rather)
	return b
}

func (s sealer) aead(create bool) (cipher.AEAD, error) {
	k, err := s.key(create)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// seal is plain sealed for place (what it may be opened as: a profile's
// flag), as base64 of the nonce and the ciphertext.
func (s sealer) seal(plain, place string) (string, error) {
	g, err := s.aead(true)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := io.ReadFull(rand.Reader, nonce); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(g.Seal(nonce, nonce, []byte(plain), []byte(place))), nil
}

// open is what seal sealed for place.
func (s sealer) open(sealed, place string) (string, error) {
	g, err := s.aead(false)
	if err != nil {
		return "", err
	}
	b, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(b) < g.NonceSize() {
		return "", errors.New("not a sealed value")
	}
	plain, err := g.Open(nil, b[:g.NonceSize()], b[g.NonceSize():], []byte(place))
	if err != nil {
		return "", errors.New("it does not open with the key (was the key replaced?)")
	}
	return string(plain), nil
}
