package live

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Screen shows the frames full screen on the terminal out (keys read from in) until q,
// Ctrl-C, ctx's end or loop.Count frames. The terminal is left as it was: the alternate
// screen is left and the cursor shown again. Colour follows the terminal, and is off when
// NO_COLOR is set. It returns the error of a frame that could not be made.
func Screen(ctx context.Context, in io.Reader, out io.Writer, next Next, loop Loop) error {
	// Screen runs only on a terminal, and the styles use the 16 ANSI colours every terminal
	// has, so the profile is set, not guessed (a guess takes a process with CI set, a CI job
	// driving a real terminal as the tests do, for one without colours). With NO_COLOR the
	// colours go but the attributes stay: the selection's reverse video and the bold header.
	colour := os.Getenv("NO_COLOR") == ""
	profile := colorprofile.ANSI
	if !colour {
		profile = colorprofile.Ascii
	}
	m := newModel(next, loop, newStyles(colour))
	m.ctx = ctx
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithColorProfile(profile))
	final, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		err = nil
	}
	if err != nil {
		return err
	}
	if fm, ok := final.(*screenState); ok && fm.err != nil {
		return fm.err
	}
	return nil
}

// frameMsg is a frame made, or the error of one that could not be.
type frameMsg struct {
	frame *view.Frame
	err   error
	took  time.Duration
}

// tickMsg asks for the next frame.
type tickMsg struct{}

// fetch makes the next frame off the UI's goroutine; one is under way at a time.
func (m *screenState) fetch() tea.Cmd {
	next, ctx := m.next, m.ctx
	return func() tea.Msg {
		start := time.Now()
		f, err := next(ctx)
		return frameMsg{frame: f, err: err, took: time.Since(start)}
	}
}

// Init starts the first refresh.
func (m *screenState) Init() tea.Cmd { return m.fetch() }

// Update handles frames, ticks, keys and resizes.
func (m *screenState) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case frameMsg:
		if msg.err != nil {
			m.err = msg.err
			return m, tea.Quit
		}
		m.add(msg.frame)
		if m.loop.Count > 0 && m.frames >= m.loop.Count {
			return m, tea.Quit
		}
		return m, tea.Tick(max(0, m.loop.Every-msg.took), func(time.Time) tea.Msg { return tickMsg{} })
	case tickMsg:
		return m, m.fetch()
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyPressMsg:
		if m.key(tea.Key(msg)) {
			return m, tea.Quit
		}
	case tea.PasteMsg:
		if m.typed(msg.Content) {
			return m, tea.Quit
		}
	}
	return m, nil
}
