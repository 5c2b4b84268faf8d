// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// QuizView: one question of a quiz at a time — its text, lettered options (radio buttons for single choice,
// check boxes for multiple), and, only after Reveal, which options are right, the explanation, and a
// "Show me" button whose demonstration the application runs (showMeRequested) and whose measured result
// it writes back (setShowMeResult). The student's choice is not recorded anywhere.

#include "QuizFile.h"

#include <QWidget>

class QAbstractButton;
class QAction;
class QButtonGroup;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace specdec::gui {

class QuizView : public QWidget
{
    Q_OBJECT
public:
    explicit QuizView(QWidget *parent = nullptr);

    void setQuiz(const app::QuizFile &quiz);
    const app::QuizFile &quiz() const { return m_quiz; }
    int questionCount() const { return static_cast<int>(m_quiz.questions.size()); }
    int currentQuestion() const { return m_index; }
    void setQuestion(int index);
    /// The options ticked (letters, in order).
    QString chosen() const;
    void setChosen(const QString &letters);
    void reveal();
    bool isRevealed() const { return m_revealed; }
    /// The text the view shows for option `i` (with ✓ / ✗ once revealed).
    QString optionText(int i) const;
    QString explanationText() const;
    QString showMeText() const;
    void setShowMeResult(const QString &text);
    QPushButton *showMeButton() const { return m_showMe; }
    /// A button for `action` ("Back to my session") beside Show me, shown while the action is enabled.
    void setBackAction(QAction *action);
    QPushButton *backButton() const { return m_back; }

signals:
    void showMeRequested(int question);

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    void retranslate();

    app::QuizFile m_quiz;
    int m_index = -1;
    bool m_revealed = false;
    bool m_shown = false; ///< Show me was pressed: the caption is visible
    QString m_result;
    QLabel *m_header;
    QLabel *m_question;
    QVBoxLayout *m_optionsLayout;
    QButtonGroup *m_group;
    QList<QAbstractButton *> m_options;
    QLabel *m_explanation;
    QLabel *m_caption;
    QPushButton *m_previous;
    QPushButton *m_reveal;
    QPushButton *m_showMe;
    QPushButton *m_back;
    QPushButton *m_next;
    QAction *m_backAction = nullptr;
};

} // namespace specdec::gui
